// The words of the webhook e-mails.
import { getEnv } from "#app/utils/env.server.ts";

export function webhookDisabledMail(url: string): { subject: string; text: string } {
  return {
    subject: "Your webhook endpoint was turned off",
    text: [
      "Deliveries to your webhook endpoint have failed for three days, so we turned it off:",
      url,
      "",
      "Events are no longer sent to it. When it answers again, turn it back on (and redeliver what it missed) here:",
      `${getEnv().appUrl}/sms/webhooks`,
      "",
      "--",
      "SMS Gateway",
    ].join("\n"),
  };
}
