// Scheduled SMS as their owner sees them: create, list, cancel. Plain data and typed errors, so the
// web screens and the REST API share them.
import { and, count, desc, eq, lt } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { contactGroups } from "#app/db/schema/contacts.ts";
import { SCHEDULE_STATUSES, schedules } from "#app/db/schema/scheduling.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { canonicalTimeZone, isValidTimeZone, parseDate } from "#app/utils/time-zone.ts";
import type { GroupSendReport } from "#app/modules/group-sends/group-send.ts";
import { latestScheduledGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { assertGroupSendable, groupRecipients } from "#app/modules/contacts/groups.server.ts";
import { assertBalance } from "#app/modules/credits/ledger.server.ts";
import { assertQuota } from "#app/modules/quotas/quotas.server.ts";
import { isE164 } from "#app/modules/messaging/phone.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { memberByMemberCost, uniformMessageCredits } from "#app/modules/group-sends/group-quote.server.ts";
import { pricedFor } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { cancelledValues, disarmSchedules } from "#app/modules/scheduling/cancel.server.ts";
import { armSchedule } from "#app/modules/scheduling/job-schedulers.server.ts";
import {
  endDateOf,
  endOfDate,
  type Recurrence,
  REPEATS,
  type Repeat,
  timingIssues,
} from "#app/modules/scheduling/recurrence.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";

export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Whom each occurrence goes to: a number (E.164), or a group's members at that moment. */
export type ScheduleTarget = { kind: "phone"; to: string } | { kind: "group"; groupId: number };

/** A schedule's target as its owner sees it; a group that has been deleted has neither id nor name. */
export type ScheduleRecipient =
  { kind: "phone"; to: string } | { kind: "group"; groupId: number | null; groupName: string | null };

export type Schedule = {
  id: number;
  target: ScheduleRecipient;
  body: string;
  /** The sender each occurrence goes out from; null: the account's default at that moment. */
  from: string | null;
  repeat: Repeat;
  timeZone: string;
  firstSendAt: number;
  /** Last day of a repeating schedule ("YYYY-MM-DD" in timeZone, inclusive); null: until cancelled. */
  endDate: string | null;
  /** The next occurrence not sent yet; null once completed or cancelled. */
  nextRunAt: number | null;
  status: ScheduleStatus;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
};

export type NewSchedule = {
  target: ScheduleTarget;
  body: string;
  repeat: Repeat;
  /** UTC epoch ms of the first send (to the second); later ones keep its wall-clock time in timeZone. */
  firstSendAt: number;
  /** IANA zone, e.g. "Europe/London". */
  timeZone: string;
  /** "YYYY-MM-DD" in timeZone, inclusive; ignored for a one-off. */
  endDate?: string | null;
  /** One of the account's senders; absent: its default when each occurrence runs. */
  from?: string;
};

export type ScheduleField = "target" | "body" | "repeat" | "timeZone" | "firstSend" | "endDate" | "from";

export class ScheduleInputError extends Error {
  readonly issues: { field: ScheduleField; message: string }[];
  constructor(issues: { field: ScheduleField; message: string }[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.message}`).join("; "));
    this.name = "ScheduleInputError";
    this.issues = issues;
  }
}

export class ScheduleNotFoundError extends Error {
  constructor(id: number) {
    super(`No scheduled SMS ${id}`);
    this.name = "ScheduleNotFoundError";
  }
}

const SCHEDULES_PAGE_SIZE = 10;

type Row = typeof schedules.$inferSelect;

export function recurrenceOf(row: Row): Recurrence {
  return {
    repeat: row.repeat,
    firstSendAt: row.firstSendAt.getTime(),
    timeZone: row.timeZone,
    endsAt: row.endsAt?.getTime() ?? null,
  };
}

function toSchedule(row: Row, groupName: string | null): Schedule {
  return {
    id: row.id,
    target:
      row.targetKind === "group"
        ? { kind: "group", groupId: row.groupId, groupName }
        : { kind: "phone", to: row.toPhone! },
    body: row.body,
    from: row.fromAddress,
    repeat: row.repeat,
    timeZone: row.timeZone,
    firstSendAt: row.firstSendAt.getTime(),
    endDate: row.endsAt ? endDateOf(row.endsAt.getTime(), row.timeZone) : null,
    nextRunAt: row.nextRunAt?.getTime() ?? null,
    status: row.status,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
  };
}

async function inputIssues(userId: number, input: NewSchedule, now: number): Promise<ScheduleInputError["issues"]> {
  const issues: ScheduleInputError["issues"] = [];
  if (input.target.kind === "phone" && !isE164(input.target.to)) {
    issues.push({ field: "target", message: `"${input.target.to}" is not a valid phone number` });
  }
  const segments = input.body.trim() ? countSegments(input.body).segments : 0;
  if (segments < 1 || segments > getEnv().SMS_MAX_SEGMENTS) {
    issues.push({ field: "body", message: `Message must have 1 to ${getEnv().SMS_MAX_SEGMENTS} segments` });
  }
  if (!REPEATS.includes(input.repeat))
    issues.push({ field: "repeat", message: "Repeat must be none, daily, weekly or monthly" });
  const zoneValid = isValidTimeZone(input.timeZone);
  if (!zoneValid) issues.push({ field: "timeZone", message: `Unknown time zone "${input.timeZone}"` });
  const startValid = Number.isFinite(input.firstSendAt);
  if (!startValid) issues.push({ field: "firstSend", message: "Start date and time is required" });
  const endDate = input.repeat === "none" ? null : (input.endDate ?? null);
  const endValid = endDate === null || parseDate(endDate) !== null;
  if (!endValid) issues.push({ field: "endDate", message: "End Date must be a date (YYYY-MM-DD)" });
  if (zoneValid && startValid && endValid) issues.push(...timingIssues({ ...input, endDate }, now));
  if (input.from && !(await sendingSenders(userId)).some((s) => s.address === input.from))
    issues.push({ field: "from", message: new UnknownSenderError(input.from).message });
  return issues;
}

async function scheduleByApiRef(userId: number, apiRef: string): Promise<Schedule | null> {
  const found = await withGroupNames()
    .where(and(eq(schedules.userId, userId), eq(schedules.apiRef, apiRef)))
    .get();
  return found ? toSchedule(found.row, found.groupName) : null;
}

/**
 * Creates a schedule and its job scheduler. Credits are checked, not reserved: the balance must pay
 * one occurrence now (segments x 1 credit, times the group's active contacts for a group), else
 * InsufficientCreditsError and nothing is created; each occurrence is debited when it runs. Bad
 * input: ScheduleInputError naming the fields. A group that is not the user's: NotFoundError; one
 * with nobody to send to: EmptyGroupError or InactiveContactError. QUOTA_SCHEDULES active schedules
 * already: QuotaExceededError. With `apiRef` (the REST API's
 * Idempotency-Key, unique per user) a repeat returns the first schedule with `duplicate`,
 * unchecked and unchanged, however late it comes.
 */
export async function createSchedule(
  userId: number,
  given: NewSchedule,
  options: { apiRef?: string } = {},
): Promise<Schedule & { duplicate: boolean }> {
  if (options.apiRef !== undefined) {
    const earlier = await scheduleByApiRef(userId, options.apiRef);
    if (earlier) return { ...earlier, duplicate: true };
  }
  // Whole seconds: later occurrences are wall-clock times, which have no milliseconds.
  const input = { ...given, firstSendAt: Math.floor(given.firstSendAt / 1000) * 1000 };
  const now = clock.now();
  const issues = await inputIssues(userId, input, now);
  if (issues.length > 0) throw new ScheduleInputError(issues);
  const prices = await currentPriceList();
  const timeZone = canonicalTimeZone(input.timeZone);
  const endDate = input.repeat === "none" ? null : (input.endDate ?? null);
  const { target } = input;

  const { row, groupName } = await withTx(async (tx) => {
    await assertQuota(tx, userId, "schedules");
    let groupName: string | null = null;
    if (target.kind === "group") {
      const group = await groupRecipients(tx, userId, target.groupId);
      // A templated body, or prices by destination: what the members' messages cost at this moment.
      const needed = await memberByMemberCost(userId, target.groupId, input.body, input.from, prices);
      await assertGroupSendable(tx, userId, group, uniformMessageCredits(input.body, prices), needed);
      groupName = group.name;
    } else {
      await assertBalance(userId, pricedFor(countSegments(input.body), prices, target.to).credits, tx);
    }
    const row = await tx
      .insert(schedules)
      .values({
        userId,
        targetKind: target.kind,
        toPhone: target.kind === "phone" ? target.to : null,
        groupId: target.kind === "group" ? target.groupId : null,
        body: input.body,
        fromAddress: input.from ?? null,
        repeat: input.repeat,
        timeZone,
        firstSendAt: new Date(input.firstSendAt),
        endsAt: endDate === null ? null : new Date(endOfDate(endDate, timeZone)),
        nextRunAt: new Date(input.firstSendAt),
        apiRef: options.apiRef ?? null,
        createdAt: new Date(now),
        updatedAt: new Date(now),
      })
      // A concurrent request with the same apiRef got there first: it is the one that stands.
      .onConflictDoNothing()
      .returning()
      .get();
    return { row, groupName };
  });
  if (!row) return { ...(await scheduleByApiRef(userId, options.apiRef!))!, duplicate: true };
  // Should Redis not take it, the reconciler arms it when Redis is back, and sends what fell due.
  await enqueueAfterCommit(`schedule ${row.id}`, () => armSchedule(row.id, recurrenceOf(row)));
  return { ...toSchedule(row, groupName), duplicate: false };
}

/** Schedules with their group's name, the group matched on the owner too. */
function withGroupNames() {
  return getDb()
    .select({ row: schedules, groupName: contactGroups.name })
    .from(schedules)
    .leftJoin(contactGroups, and(eq(contactGroups.id, schedules.groupId), eq(contactGroups.userId, schedules.userId)));
}

/** The owner's schedule, or null (another user's id is nobody's). */
export async function getSchedule(userId: number, id: number): Promise<Schedule | null> {
  const found = await withGroupNames()
    .where(and(eq(schedules.id, id), eq(schedules.userId, userId)))
    .get();
  return found ? toSchedule(found.row, found.groupName) : null;
}

/** A schedule in the list; a group schedule also shows what its latest occurrence did. */
export type ScheduleListItem = Schedule & { lastGroupSend: GroupSendReport | null };

/** The owner's schedules, newest first, a page at a time. */
export async function listSchedules(userId: number, requestedPage = 1) {
  const total =
    (await getDb().select({ n: count() }).from(schedules).where(eq(schedules.userId, userId)).get())?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, SCHEDULES_PAGE_SIZE);
  const rows = await withGroupNames()
    .where(eq(schedules.userId, userId))
    .orderBy(desc(schedules.id))
    .limit(SCHEDULES_PAGE_SIZE)
    .offset(offset)
    .all();
  const items: ScheduleListItem[] = [];
  for (const { row, groupName } of rows)
    items.push({
      ...toSchedule(row, groupName),
      lastGroupSend: row.targetKind === "group" ? await latestScheduledGroupSend(userId, row.id) : null,
    });
  return { schedules: items, page, totalPages, total };
}

/** The owner's schedules, newest first, ids below `before`, at most `limit` (the REST API's keyset pages). */
export async function listSchedulesBefore(
  userId: number,
  options: { before: number; limit: number },
): Promise<Schedule[]> {
  return (
    await withGroupNames()
      .where(and(eq(schedules.userId, userId), lt(schedules.id, options.before)))
      .orderBy(desc(schedules.id))
      .limit(options.limit)
      .all()
  ).map(({ row, groupName }) => toSchedule(row, groupName));
}

/** How many of the user's schedules to a group are still to run (deleting the group cancels them). */
export async function countActiveGroupSchedules(userId: number, groupId: number): Promise<number> {
  return (
    (
      await getDb()
        .select({ n: count() })
        .from(schedules)
        .where(and(eq(schedules.userId, userId), eq(schedules.groupId, groupId), eq(schedules.status, "active")))
        .get()
    )?.n ?? 0
  );
}

/**
 * Stops the schedule's future occurrences; messages already created are untouched. Cancelling a
 * completed or cancelled schedule changes nothing. Another user's id: ScheduleNotFoundError.
 */
export async function cancelSchedule(userId: number, id: number): Promise<Schedule> {
  const changed = await withTx(
    async (tx) =>
      (
        await tx
          .update(schedules)
          .set(cancelledValues(clock.date()))
          .where(and(eq(schedules.id, id), eq(schedules.userId, userId), eq(schedules.status, "active")))
          .run()
      ).changes,
  );
  if (changed > 0) await disarmSchedules([id]);
  const schedule = await getSchedule(userId, id);
  if (!schedule) throw new ScheduleNotFoundError(id);
  return schedule;
}

const queries = statements({
  latestWaiting: sqlText<[number], { id: number }>(
    "select id from schedules where user_id = ? and status = 'active' and repeat = 'none' and target_kind = 'phone' order by id desc limit 1",
  ),
});

/** The id of the user's newest one-off message schedule still waiting to go out. */
export async function latestWaitingScheduleId(userId: number): Promise<number | null> {
  return (await queries.latestWaiting.get(userId))?.id ?? null;
}
