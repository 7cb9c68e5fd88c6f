// A schedule's occurrences: its job scheduler (upserted by app/modules/scheduling) adds one job each.
import type { JobsOptions } from "bullmq";
import { z } from "zod";

export const SMS_SCHEDULE_QUEUE = "sms-schedule";

/** A schedule's occurrence; its time is the job scheduler's iteration time (job.opts.prevMillis). */
export const SmsSchedulePayload = z.object({ v: z.literal(1), scheduleId: z.number().int().positive() });
export type SmsSchedulePayload = z.infer<typeof SmsSchedulePayload>;

const OCCURRENCE_JOB_OPTIONS: JobsOptions = {
  // A failed run (e.g. the database busy) is retried; running an occurrence twice sends it once.
  attempts: 5,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** The job template of a schedule's job scheduler: what each occurrence's job is. */
export function occurrenceJob(scheduleId: number) {
  const data: SmsSchedulePayload = { v: 1, scheduleId };
  return { name: "occurrence", data, opts: OCCURRENCE_JOB_OPTIONS };
}
