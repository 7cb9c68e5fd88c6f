// Helpers for scheduling tests: a schedule's messages, its job scheduler, and running its next tick.
import { asc, eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { scheduleQueue } from "#app/modules/scheduling/job-schedulers.server.ts";
import { createSchedule, getSchedule, type NewSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { waitFor } from "#tests/support/wait.ts";

export async function scheduleMessages(scheduleId: number) {
  return await getDb()
    .select()
    .from(smsMessages)
    .where(eq(smsMessages.scheduleId, scheduleId))
    .orderBy(asc(smsMessages.occurrenceAt))
    .all();
}

/** The occurrence times (UTC ms) that made a message, in order. */
export async function sentOccurrences(scheduleId: number): Promise<number[]> {
  return (await scheduleMessages(scheduleId)).map((m) => m.occurrenceAt!.getTime());
}

export function schedulerOf(scheduleId: number) {
  return scheduleQueue().getJobScheduler(String(scheduleId));
}

/** The job BullMQ holds for a schedule's occurrence (delayed until its time). */
export function occurrenceJob(scheduleId: number, at: number) {
  return scheduleQueue().getJob(`repeat:${scheduleId}:${at}`);
}

/** A phone schedule whose first send is `inMs` from now (real time, so BullMQ fires it). */
export function scheduleSoon(userId: number, overrides: Partial<NewSchedule> & { inMs?: number } = {}) {
  const { inMs = 1_500, ...rest } = overrides;
  return createSchedule(userId, {
    target: { kind: "phone", to: "+12025550180" },
    body: "Your appointment is tomorrow",
    repeat: "none",
    firstSendAt: Date.now() + inMs,
    timeZone: "UTC",
    ...rest,
  });
}

/**
 * Runs a schedule's next occurrence the way BullMQ does, without waiting days: the test clock moves
 * to its time and its delayed job is promoted for the running worker. Returns the occurrence time.
 */
export async function tick(userId: number, scheduleId: number): Promise<number> {
  const at = (await getSchedule(userId, scheduleId))?.nextRunAt;
  if (!at) throw new Error(`Schedule ${scheduleId} has no next occurrence`);
  const job = await waitFor(() => occurrenceJob(scheduleId, at), { what: `the job of occurrence ${at}` });
  setClock(() => at);
  try {
    await job.promote();
    await waitFor(
      async () =>
        (await sentOccurrences(scheduleId)).includes(at) && (await getSchedule(userId, scheduleId))?.nextRunAt !== at,
      {
        what: `occurrence ${at} of schedule ${scheduleId} to run`,
      },
    );
  } finally {
    resetClock();
  }
  return at;
}
