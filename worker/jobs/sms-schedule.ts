import { type Job, UnrecoverableError } from "bullmq";
import { SCHEDULE_QUEUE_SETTINGS } from "#app/modules/scheduling/job-schedulers.server.ts";
import { runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { SMS_SCHEDULE_QUEUE, SmsSchedulePayload } from "#app/queue/jobs/sms-schedule.server.ts";
import { reconcileSchedulesAlone } from "#worker/jobs/sms-schedule-reconcile.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** One occurrence of a schedule, fired by its job scheduler (see app/modules/scheduling). */
export const smsSchedule: JobDefinition = {
  queue: SMS_SCHEDULE_QUEUE,
  concurrency: 5,
  settings: SCHEDULE_QUEUE_SETTINGS,
  async onStart() {
    // Before the first occurrence runs: send what fell due while down, and rebuild lost schedulers.
    await reconcileSchedulesAlone({ sync: true });
  },
  async process(job: Job) {
    const { scheduleId } = SmsSchedulePayload.parse(job.data);
    // The iteration's time, which BullMQ also puts in the job id (repeat:<scheduler>:<time>).
    const at = job.opts.prevMillis;
    if (typeof at !== "number") throw new UnrecoverableError(`Job ${job.id} is not a job scheduler's iteration`);
    return runOccurrence(scheduleId, at);
  },
};
