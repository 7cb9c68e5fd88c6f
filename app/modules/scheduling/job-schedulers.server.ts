// The Redis side of schedules: one BullMQ job scheduler per active schedule, id = the schedule's id.
import type { QueueOptions } from "bullmq";
import { occurrenceJob, SMS_SCHEDULE_QUEUE } from "#app/queue/jobs/sms-schedule.server.ts";
import { getQueue, queueForRequest } from "#app/queue/queues.server.ts";
import { type Recurrence, repeatOptionsOf, scheduleRepeatStrategy } from "#app/modules/scheduling/recurrence.ts";

/** For every producer and worker of the schedule queue: upserting a scheduler computes its first run. */
export const SCHEDULE_QUEUE_SETTINGS: QueueOptions["settings"] = { repeatStrategy: scheduleRepeatStrategy };

export const scheduleQueue = () => getQueue(SMS_SCHEDULE_QUEUE, SCHEDULE_QUEUE_SETTINGS);
const scheduleQueueForRequest = () => queueForRequest(SMS_SCHEDULE_QUEUE, SCHEDULE_QUEUE_SETTINGS);

export function schedulerId(scheduleId: number): string {
  return String(scheduleId);
}

/**
 * Creates or replaces the schedule's job scheduler. BullMQ adds the job of the first occurrence
 * after now (the queue's repeat strategy reads the rule) and, as each one starts, the next one.
 */
export async function armSchedule(scheduleId: number, rule: Recurrence): Promise<void> {
  await scheduleQueueForRequest().upsertJobScheduler(
    schedulerId(scheduleId),
    repeatOptionsOf(rule),
    occurrenceJob(scheduleId),
  );
}

/** Removes the job scheduler and its waiting job; a job already running finishes. */
export async function disarmSchedule(scheduleId: number): Promise<void> {
  await removeJobSchedulers([schedulerId(scheduleId)]);
}

export async function removeJobSchedulers(ids: string[]): Promise<void> {
  const queue = scheduleQueueForRequest();
  await Promise.all(ids.map((id) => queue.removeJobScheduler(id)));
}

/** Whether the schedule's job scheduler is in Redis with the job of its next occurrence. */
export async function isArmed(scheduleId: number): Promise<boolean> {
  const queue = scheduleQueue();
  const scheduler = await queue.getJobScheduler(schedulerId(scheduleId));
  if (!scheduler?.next) return false;
  return (await queue.getJob(`repeat:${schedulerId(scheduleId)}:${scheduler.next}`)) !== undefined;
}

/** Ids of every job scheduler in Redis. */
export async function armedScheduleIds(): Promise<string[]> {
  return (await scheduleQueue().getJobSchedulers()).map((scheduler) => scheduler.key);
}
