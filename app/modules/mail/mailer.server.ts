import { createTransport } from "nodemailer";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";

export type Address = { name: string; address: string };

export type OutgoingMail = {
  from: string;
  to: string;
  replyTo?: Address;
  subject: string;
  text: string;
  messageId: string;
};

/** The one door to the mail server, so the rest of the code never sees nodemailer. */
export type Mailer = { send: (mail: OutgoingMail) => Promise<{ messageId: string }> };

let mailer: Mailer | undefined;

/** The domain of MAIL_FROM, which every Message-ID we make ends in. */
export function mailDomain(): string {
  return /@([^\s>]+)/.exec(getEnv().MAIL_FROM)?.[1] ?? "smsgw.invalid";
}

/** The configured SMTP server, or null when SMTP_URL is unset (mail is then kept in the outbox only). */
export function getMailer(): Mailer | null {
  if (!getEnv().SMTP_URL) return null;
  if (!mailer) {
    // Short timeouts: a hung server fails this attempt and the queue retries later.
    const transport = createTransport({
      url: getEnv().SMTP_URL,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      // STARTTLS or nothing: without it nodemailer would send in the clear to a server that does not offer it.
      requireTLS: getEnv().smtpRequireTls,
    });
    mailer = {
      async send(mail) {
        try {
          const info = await transport.sendMail(mail);
          return { messageId: info.messageId };
        } catch (error) {
          // A setting to fix, not a passing outage: said louder than a retry.
          if ((error as { code?: string }).code === "ETLS")
            log("warn", "mail", `not sent: the mail server did not start TLS, which SMTP_REQUIRE_TLS requires`);
          throw error;
        }
      },
    };
  }
  return mailer;
}
