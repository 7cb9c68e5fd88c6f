import type { Job } from "bullmq";
import { reconcileSchedules } from "#app/modules/scheduling/runner.server.ts";
import {
  SMS_SCHEDULE_RECONCILE_QUEUE,
  SmsScheduleReconcilePayload,
} from "#app/queue/jobs/sms-schedule-reconcile.server.ts";
import { reconciler } from "#app/queue/run-alone.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** One run at a time across every worker, whether a start's, a catch-up or a sync. */
export const reconcileSchedulesAlone = reconciler("schedules-reconcile", reconcileSchedules);

export const smsScheduleReconcile: JobDefinition = {
  queue: SMS_SCHEDULE_RECONCILE_QUEUE,
  concurrency: 1,
  schedules: [
    // Due occurrences no job ran, every minute; the full comparison with Redis every 10 minutes.
    { id: "schedule-catch-up", pattern: "20 * * * * *", data: { v: 1, sync: false } },
    { id: "schedule-sync", pattern: "40 */10 * * * *", data: { v: 1, sync: true } },
  ],
  async process(job: Job) {
    return reconcileSchedulesAlone(SmsScheduleReconcilePayload.parse(job.data));
  },
};
