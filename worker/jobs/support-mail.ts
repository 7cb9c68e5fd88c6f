import type { Job } from "bullmq";
import { deliverSupportRequest, reconcileSupportMail, supportMailBackoff } from "#app/modules/support/mail.server.ts";
import {
  SUPPORT_MAIL_QUEUE,
  SupportMailPayload,
  SupportMailReconcilePayload,
} from "#app/queue/jobs/support-mail.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const RECONCILE = "support-mail-reconcile";

export const supportMail: JobDefinition = {
  queue: SUPPORT_MAIL_QUEUE,
  concurrency: 5,
  // Also while running: picks up requests whose job ran out of attempts or was lost from Redis.
  schedules: [{ id: RECONCILE, pattern: "0 */15 * * * *", data: { v: 1 } }],
  settings: { backoffStrategy: (attemptsMade: number) => supportMailBackoff(attemptsMade) },
  onStart: async () => {
    await reconcileSupportMail();
  },
  async process(job: Job) {
    if (job.name === RECONCILE) {
      SupportMailReconcilePayload.parse(job.data);
      return reconcileSupportMail();
    }
    return deliverSupportRequest(SupportMailPayload.parse(job.data).requestId);
  },
};
