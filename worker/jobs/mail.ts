import type { Job } from "bullmq";
import { deliverMail, mailBackoff, reconcileMail } from "#app/modules/mail/outbox.server.ts";
import { MAIL_QUEUE, MailPayload, MailReconcilePayload } from "#app/queue/jobs/mail.server.ts";
import { reconciler } from "#app/queue/run-alone.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const RECONCILE = "mail-reconcile";
const reconcileAlone = reconciler(RECONCILE, reconcileMail);

export const mail: JobDefinition = {
  queue: MAIL_QUEUE,
  concurrency: 5,
  // Picks up mail whose job ran out of attempts or never reached Redis.
  schedules: [{ id: RECONCILE, pattern: "30 */5 * * * *", data: { v: 1 } }],
  settings: { backoffStrategy: (attemptsMade: number) => mailBackoff(attemptsMade) },
  onStart: async () => {
    await reconcileAlone();
  },
  async process(job: Job) {
    if (job.name === RECONCILE) {
      MailReconcilePayload.parse(job.data);
      return reconcileAlone();
    }
    return deliverMail(MailPayload.parse(job.data).mailId);
  },
};
