// Every e-mail (account mail, support and contact requests): one job per mail_outbox row, which is the record.
import { z } from "zod";
import { getQueue } from "#app/queue/queues.server.ts";

export const MAIL_QUEUE = "mail";

/** Deliver one mail_outbox row; the row, not the job, is the record. */
export const MailPayload = z.object({ v: z.literal(1), mailId: z.number().int().positive() });
export type MailPayload = z.infer<typeof MailPayload>;
export const MailReconcilePayload = z.object({ v: z.literal(1) });

// With the defaults (SUPPORT_MAIL_RETRY_*): 10 s doubling up to an hour, about two days in all; the
// reconciler then starts a new series, so a mail is retried until the server takes it.
const MAIL_ATTEMPTS = 50;

function mailJob(mailId: number) {
  const data: MailPayload = { v: 1, mailId };
  return {
    name: "deliver",
    data,
    opts: {
      jobId: `mail-${mailId}`,
      attempts: MAIL_ATTEMPTS,
      backoff: { type: "capped-exponential" },
      removeOnComplete: true,
      removeOnFail: true,
    },
  };
}

/** One delivery job per mail; a mail whose job waits or retries is not added twice (its job id). */
export async function addMailJobs(mailIds: number[]): Promise<void> {
  await getQueue(MAIL_QUEUE).addBulk(mailIds.map(mailJob));
}
