import type { Job } from "bullmq";
import { handOutboxToReconciler, reconcileSms } from "#app/modules/sms/reconcile.server.ts";
import { SMS_RECONCILE_QUEUE, SmsReconcilePayload } from "#app/queue/jobs/sms-reconcile.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { reconciler } from "#app/queue/run-alone.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const reconcileAlone = reconciler("sms-reconcile", reconcileSms);

export const smsReconcile: JobDefinition = {
  queue: SMS_RECONCILE_QUEUE,
  concurrency: 1,
  get schedules() {
    return [{ id: "sms-reconcile", every: getEnv().SMS_RECONCILE_INTERVAL_MS, data: { v: 1 } }];
  },
  async onStart() {
    await reconcileAlone();
  },
  // The send jobs of every queued message were lost: their messages go now, not after the grace.
  async onRedisEmptied() {
    await handOutboxToReconciler();
    await reconcileAlone();
  },
  async process(job: Job) {
    SmsReconcilePayload.parse(job.data);
    return reconcileAlone();
  },
};
