// Running schedules: each occurrence through the normal send path, and the reconciler that keeps
// Redis in step with the schedules table (the record) and sends what fell due while nobody ran it.
import { and, asc, eq, gt, lte } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { EmptyGroupError, InactiveContactError, NotFoundError } from "#app/modules/contacts/errors.ts";
import { recordFailedGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { OPTED_OUT_REASON, OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { type NewMessage, queueMessages, recordUnsentMessage } from "#app/modules/sms/send.server.ts";
import { cancelledValues } from "#app/modules/scheduling/cancel.server.ts";
import {
  armedScheduleIds,
  armSchedule,
  disarmSchedule,
  isArmed,
  removeJobSchedulers,
  schedulerId,
} from "#app/modules/scheduling/job-schedulers.server.ts";
import { isOccurrence, latestOccurrence, nextOccurrence } from "#app/modules/scheduling/recurrence.ts";
import { recurrenceOf } from "#app/modules/scheduling/schedules.server.ts";
import { isAccountDisabled } from "#app/modules/auth/users.server.ts";

/** A job may start this much before its time (clocks of hosts differ a little); earlier waits for the catch-up. */
const EARLY_MS = 5_000;
/** The catch-up leaves a due occurrence this long to its own job first. */
const CATCH_UP_GRACE_MS = 30_000;
const BATCH = 500;

type Row = typeof schedules.$inferSelect;

export type OccurrenceOutcome =
  /** Its message (or its group send) was queued, or had been by an earlier run of the same occurrence. */
  | "queued"
  | "duplicate"
  /** Recorded as a failed message (or group send), nothing debited; the schedule goes on. */
  | "insufficient-credits"
  /** A group with no active contacts at that moment: recorded as a failed group send; the schedule goes on. */
  | "no-recipients"
  /** The number opted out: recorded as failed "Opted out" at no charge. */
  | "opted-out"
  /** More than SCHEDULE_MAX_LATE_MINUTES late (nothing was running at its time): recorded as failed. */
  | "missed"
  /** The account is disabled: recorded as failed at no charge; the schedule goes on once it is enabled. */
  | "account-disabled"
  /** Nothing done: the schedule is not active, the time is not one of its occurrences, not due yet, or handled. */
  | "inactive"
  | "not-an-occurrence"
  | "not-due"
  | "handled";

export const INSUFFICIENT_CREDITS_REASON = "Insufficient credits";
export const MISSED_REASON = "Missed: the gateway was not running at the scheduled time";
export const ACCOUNT_DISABLED_SCHEDULE_REASON = "Not sent: the account is disabled";

/** An occurrence recorded as failed without sending: why, and the outcome to report. */
type Unsent = { reason: string; outcome: "missed" | "account-disabled" };

function insufficientCredits(error: InsufficientCreditsError): string {
  return `${INSUFFICIENT_CREDITS_REASON}: ${error.needed} needed, ${error.balance} available`;
}

/** A number: one message, keyed by (schedule, occurrence). */
async function deliverToPhone(row: Row, at: number, unsent: Unsent | null): Promise<OccurrenceOutcome> {
  const message: NewMessage = {
    to: row.toPhone!,
    body: row.body,
    source: "schedule",
    scheduleId: row.id,
    occurrenceAt: at,
    from: row.fromAddress,
  };
  if (unsent) {
    await recordUnsentMessage(row.userId, message, unsent.reason);
    return unsent.outcome;
  }
  try {
    const result = await queueMessages(row.userId, [message]);
    return result.messages[0].duplicate ? "duplicate" : "queued";
  } catch (error) {
    // Recorded failed at no charge, so the schedule's history says why nothing went.
    if (error instanceof OptedOutError) {
      await recordUnsentMessage(row.userId, message, OPTED_OUT_REASON);
      return "opted-out";
    }
    if (error instanceof UnknownSenderError) {
      await recordUnsentMessage(row.userId, message, `${error.message} any more`);
      return "no-recipients";
    }
    if (!(error instanceof InsufficientCreditsError)) throw error;
    await recordUnsentMessage(row.userId, message, insufficientCredits(error));
    return "insufficient-credits";
  }
}

/**
 * A group: one group send keyed by (schedule, occurrence), whose fan-out job creates a message per
 * member active at this moment (unique per send and contact). All or nothing: when the balance
 * cannot pay every active member, or nobody is left to send to, the occurrence is recorded as a
 * failed group send with the reason and sends nothing.
 */
async function deliverToGroup(
  row: Row,
  groupId: number,
  at: number,
  unsent: Unsent | null,
): Promise<OccurrenceOutcome> {
  const occurrence = { scheduleId: row.id, at };
  const fail = async (reason: string, outcome: OccurrenceOutcome): Promise<OccurrenceOutcome> => {
    const recorded = await recordFailedGroupSend(row.userId, groupId, row.body, occurrence, reason);
    // No group: it was deleted meanwhile, which cancelled the schedule.
    if (!recorded) return "inactive";
    return recorded.duplicate ? "duplicate" : outcome;
  };
  if (unsent) return await fail(unsent.reason, unsent.outcome);
  try {
    const send = await startGroupSend(row.userId, groupId, row.body, {
      occurrence,
      from: row.fromAddress ?? undefined,
    });
    return send.duplicate ? "duplicate" : "queued";
  } catch (error) {
    if (error instanceof InsufficientCreditsError)
      return await fail(insufficientCredits(error), "insufficient-credits");
    if (error instanceof EmptyGroupError || error instanceof InactiveContactError)
      return await fail(error.message, "no-recipients");
    if (error instanceof NotFoundError) return "inactive";
    if (error instanceof UnknownSenderError) return await fail(`${error.message} any more`, "no-recipients");
    throw error;
  }
}

/** Moves the schedule past `at`; the last occurrence completes it. True when it completed. */
async function advance(row: Row, at: number, now: number): Promise<boolean> {
  const next = nextOccurrence(recurrenceOf(row), at);
  const changed = await withTx(
    async (tx) =>
      (
        await tx
          .update(schedules)
          .set({
            nextRunAt: next === null ? null : new Date(next),
            status: next === null ? "completed" : "active",
            finishedAt: next === null ? new Date(now) : null,
            updatedAt: new Date(now),
          })
          // A concurrent cancel wins; a run of an older occurrence never moves it back.
          .where(and(eq(schedules.id, row.id), eq(schedules.status, "active"), lte(schedules.nextRunAt, new Date(at))))
          .run()
      ).changes,
  );
  return next === null && changed === 1;
}

/**
 * Runs the occurrence of `scheduleId` at `at` (UTC ms): queues its message, or its group send,
 * through the normal send path keyed by (schedule, occurrence), so running it twice sends once, then
 * moves the schedule on. Occurrences skipped over (nothing ran at their time) are not sent.
 */
export async function runOccurrence(scheduleId: number, at: number): Promise<OccurrenceOutcome> {
  const row = await getDb().select().from(schedules).where(eq(schedules.id, scheduleId)).get();
  const groupGone = row?.targetKind === "group" && row.groupId === null;
  if (row?.status === "active" && !groupGone) return runActive(row, at);
  if (row?.status === "active") {
    // deleteGroup cancels a group's schedules with it; this covers a group gone any other way.
    await withTx((tx) =>
      tx
        .update(schedules)
        .set(cancelledValues(clock.date()))
        .where(and(eq(schedules.id, row.id), eq(schedules.status, "active")))
        .run(),
    );
  }
  await disarmSchedule(scheduleId);
  return "inactive";
}

async function runActive(row: Row, at: number): Promise<OccurrenceOutcome> {
  if (!isOccurrence(recurrenceOf(row), at)) return "not-an-occurrence";
  const now = clock.now();
  if (at > now + EARLY_MS) return "not-due";
  if (row.nextRunAt === null || at < row.nextRunAt.getTime()) return "handled";

  const late = now - at > getEnv().SCHEDULE_MAX_LATE_MINUTES * 60_000;
  // A disabled account's schedules pause: each occurrence is recorded as not sent, the next one runs.
  const unsent: Unsent | null = (await isAccountDisabled(row.userId))
    ? { reason: ACCOUNT_DISABLED_SCHEDULE_REASON, outcome: "account-disabled" }
    : late
      ? { reason: MISSED_REASON, outcome: "missed" }
      : null;
  const outcome =
    row.targetKind === "group"
      ? await deliverToGroup(row, row.groupId!, at, unsent)
      : await deliverToPhone(row, at, unsent);
  if (await advance(row, at, now)) await disarmSchedule(row.id);
  return outcome;
}

/**
 * Occurrences that are due and that no job ran (the worker was down, or Redis lost the job): the
 * latest one of each schedule runs now (sent, or recorded as missed when too late), and the
 * schedule's job scheduler is put back if it is gone.
 */
async function catchUpSchedules(): Promise<number> {
  const now = clock.now();
  const due = await getDb()
    .select()
    .from(schedules)
    .where(and(eq(schedules.status, "active"), lte(schedules.nextRunAt, new Date(now - CATCH_UP_GRACE_MS))))
    .orderBy(asc(schedules.nextRunAt))
    .limit(BATCH)
    .all();
  for (const row of due) {
    const rule = recurrenceOf(row);
    const latest = latestOccurrence(rule, row.nextRunAt!.getTime(), now);
    if (latest !== null) await runOccurrence(row.id, latest);
    const status = (
      await getDb().select({ status: schedules.status }).from(schedules).where(eq(schedules.id, row.id)).get()
    )?.status;
    if (status === "active" && !(await isArmed(row.id))) await armSchedule(row.id, rule);
  }
  return due.length;
}

/** Makes Redis match the table: a job scheduler for every active schedule, none for anything else. */
async function syncJobSchedulers(): Promise<{ armed: number; removed: number }> {
  const orphans = new Set(await armedScheduleIds());
  let armed = 0;
  for (let after = 0; ;) {
    const rows = await getDb()
      .select()
      .from(schedules)
      .where(and(eq(schedules.status, "active"), gt(schedules.id, after)))
      .orderBy(asc(schedules.id))
      .limit(BATCH)
      .all();
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    const states = await Promise.all(rows.map((row) => isArmed(row.id)));
    for (const [i, row] of rows.entries()) {
      orphans.delete(schedulerId(row.id));
      if (states[i]) continue;
      await armSchedule(row.id, recurrenceOf(row));
      armed += 1;
    }
  }
  // Ids in Redis that are no active schedule: cancelled while Redis was unreachable, or left over.
  await removeJobSchedulers([...orphans]);
  return { armed, removed: orphans.size };
}

/** At worker start and periodically: catch up due occurrences first, then (with `sync`) mend Redis. */
export async function reconcileSchedules({ sync }: { sync: boolean }) {
  const caughtUp = await catchUpSchedules();
  const synced = sync ? await syncJobSchedulers() : { armed: 0, removed: 0 };
  if (caughtUp + synced.armed + synced.removed > 0) {
    log(
      "info",
      "scheduling",
      `reconciled: ${caughtUp} due caught up, ${synced.armed} schedulers armed, ${synced.removed} removed`,
    );
  }
  return { caughtUp, ...synced };
}
