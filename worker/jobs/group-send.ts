import type { Job } from "bullmq";
import { reconcileGroupSends, runGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { GROUP_SEND_QUEUE, GroupSendPayload, GroupSendReconcilePayload } from "#app/queue/jobs/group-send.server.ts";
import { reconciler } from "#app/queue/run-alone.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const RECONCILE = "group-send-reconcile";
const reconcileAlone = reconciler(RECONCILE, reconcileGroupSends);

export const groupSend: JobDefinition = {
  queue: GROUP_SEND_QUEUE,
  // Each fan-out writes in batches; two at once keep one big group from holding up the others.
  concurrency: 2,
  schedules: [{ id: RECONCILE, pattern: "30 * * * * *", data: { v: 1 } }],
  async onStart() {
    await reconcileAlone();
  },
  async process(job: Job) {
    if (job.name === RECONCILE) {
      GroupSendReconcilePayload.parse(job.data);
      return reconcileAlone();
    }
    const { groupSendId } = GroupSendPayload.parse(job.data);
    return runGroupSend(groupSendId, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) });
  },
};
