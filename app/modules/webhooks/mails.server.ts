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

export function webhookDeliveriesDroppedMail(
  dropped: number,
  cap: number,
  urls: string[],
): { subject: string; text: string } {
  return {
    subject: "Webhook deliveries were dropped",
    text: [
      `More than ${cap.toLocaleString("en-US")} webhook deliveries of your account were waiting to be retried, so we dropped the oldest ${dropped.toLocaleString("en-US")} of them.`,
      ...(urls.length > 0 ? ["", "They were for:", ...urls] : []),
      "",
      "Check that your endpoints answer with a 2xx status. Each delivery log shows what was dropped; Redeliver sends one again:",
      `${getEnv().appUrl}/sms/webhooks`,
      "",
      "--",
      "SMS Gateway",
    ].join("\n"),
  };
}
