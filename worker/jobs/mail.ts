import type { Job } from "bullmq";
import { deliverMail, reconcileMail } from "#app/modules/mail/outbox.server.ts";
import { supportMailBackoff } from "#app/modules/support/mail.server.ts";
import { MailPayload, MailReconcilePayload } from "#app/queue/payloads.ts";
import { QUEUES } from "#app/queue/queues.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const RECONCILE = "mail-reconcile";

export const mail: JobDefinition = {
  queue: QUEUES.mail,
  concurrency: 5,
  // Picks up mail whose job ran out of attempts or never reached Redis.
  schedules: [{ id: RECONCILE, pattern: "30 */5 * * * *", data: { v: 1 } }],
  settings: { backoffStrategy: (attemptsMade: number) => supportMailBackoff(attemptsMade) },
  onStart: async () => {
    await reconcileMail();
  },
  async process(job: Job) {
    if (job.name === RECONCILE) {
      MailReconcilePayload.parse(job.data);
      return reconcileMail();
    }
    return deliverMail(MailPayload.parse(job.data).mailId);
  },
};
