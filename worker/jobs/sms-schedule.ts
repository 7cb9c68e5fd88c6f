import { type Job, UnrecoverableError } from "bullmq";
import { SCHEDULE_QUEUE_SETTINGS } from "#app/modules/scheduling/job-schedulers.server.ts";
import { reconcileSchedules, runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { SmsSchedulePayload } from "#app/queue/payloads.ts";
import { QUEUES } from "#app/queue/queues.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** One occurrence of a schedule, fired by its job scheduler (see app/modules/scheduling). */
export const smsSchedule: JobDefinition = {
  queue: QUEUES.smsSchedule,
  concurrency: 5,
  settings: SCHEDULE_QUEUE_SETTINGS,
  async onStart() {
    // Before the first occurrence runs: send what fell due while down, and rebuild lost schedulers.
    await reconcileSchedules({ sync: true });
  },
  async process(job: Job) {
    const { scheduleId } = SmsSchedulePayload.parse(job.data);
    // The iteration's time, which BullMQ also puts in the job id (repeat:<scheduler>:<time>).
    const at = job.opts.prevMillis;
    if (typeof at !== "number") throw new UnrecoverableError(`Job ${job.id} is not a job scheduler's iteration`);
    return runOccurrence(scheduleId, at);
  },
};
