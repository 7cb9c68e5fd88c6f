// Scheduled SMS as their owner sees them: create, list, cancel. Plain data and typed errors, so the
// web screens and the REST API share them.
import { and, count, desc, eq } from "drizzle-orm";
import { db } from "../../db/client.server.ts";
import { SCHEDULE_STATUSES, schedules } from "../../db/schema/scheduling.ts";
import { clock } from "../../utils/clock.server.ts";
import { env } from "../../utils/env.server.ts";
import { log } from "../../utils/log.server.ts";
import { canonicalTimeZone, isValidTimeZone, parseDate } from "../../utils/time-zone.ts";
import { getBalance, InsufficientCreditsError } from "../credits/ledger.server.ts";
import { isE164 } from "../sms/phone.ts";
import { countSegments } from "../sms/segments.ts";
import { armSchedule, disarmSchedule } from "./job-schedulers.server.ts";
import { endDateOf, endOfDate, type Recurrence, REPEATS, type Repeat, timingIssues } from "./recurrence.ts";

export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Whom each occurrence goes to: a number (E.164), or a group's members at that moment. */
export type ScheduleTarget = { kind: "phone"; to: string } | { kind: "group"; groupId: number };

export type Schedule = {
  id: number;
  target: ScheduleTarget;
  body: string;
  repeat: Repeat;
  timeZone: string;
  firstSendAt: number;
  /** Last day of a repeating schedule ("YYYY-MM-DD" in timeZone, inclusive); null: until cancelled. */
  endDate: string | null;
  /** The next occurrence not sent yet; null once completed or cancelled. */
  nextRunAt: number | null;
  status: ScheduleStatus;
  createdAt: number;
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
};

export type ScheduleField = "target" | "body" | "repeat" | "timeZone" | "firstSend" | "endDate";

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

export const SCHEDULES_PAGE_SIZE = 10;

type Row = typeof schedules.$inferSelect;

export function recurrenceOf(row: Row): Recurrence {
  return {
    repeat: row.repeat,
    firstSendAt: row.firstSendAt.getTime(),
    timeZone: row.timeZone,
    endsAt: row.endsAt?.getTime() ?? null,
  };
}

export function targetOf(row: Row): ScheduleTarget {
  return row.targetKind === "group" ? { kind: "group", groupId: row.groupId! } : { kind: "phone", to: row.toPhone! };
}

function toSchedule(row: Row): Schedule {
  return {
    id: row.id,
    target: targetOf(row),
    body: row.body,
    repeat: row.repeat,
    timeZone: row.timeZone,
    firstSendAt: row.firstSendAt.getTime(),
    endDate: row.endsAt ? endDateOf(row.endsAt.getTime(), row.timeZone) : null,
    nextRunAt: row.nextRunAt?.getTime() ?? null,
    status: row.status,
    createdAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
  };
}

function inputIssues(input: NewSchedule, now: number): ScheduleInputError["issues"] {
  const issues: ScheduleInputError["issues"] = [];
  if (input.target.kind === "phone" && !isE164(input.target.to)) {
    issues.push({ field: "target", message: `"${input.target.to}" is not a valid phone number` });
  }
  // The seam for group schedules: their fan-out comes with the contacts and groups issue.
  if (input.target.kind === "group") issues.push({ field: "target", message: "Group schedules are not available yet" });
  const segments = input.body.trim() ? countSegments(input.body).segments : 0;
  if (segments < 1 || segments > env.SMS_MAX_SEGMENTS) {
    issues.push({ field: "body", message: `Message must have 1 to ${env.SMS_MAX_SEGMENTS} segments` });
  }
  if (!REPEATS.includes(input.repeat)) issues.push({ field: "repeat", message: "Repeat must be none, daily, weekly or monthly" });
  const zoneValid = isValidTimeZone(input.timeZone);
  if (!zoneValid) issues.push({ field: "timeZone", message: `Unknown time zone "${input.timeZone}"` });
  const startValid = Number.isFinite(input.firstSendAt);
  if (!startValid) issues.push({ field: "firstSend", message: "Start date and time is required" });
  const endDate = input.repeat === "none" ? null : (input.endDate ?? null);
  const endValid = endDate === null || parseDate(endDate) !== null;
  if (!endValid) issues.push({ field: "endDate", message: "End Date must be a date (YYYY-MM-DD)" });
  if (zoneValid && startValid && endValid) issues.push(...timingIssues({ ...input, endDate }, now));
  return issues;
}

function scheduleByApiRef(userId: number, apiRef: string): Schedule | null {
  const row = db.select().from(schedules).where(and(eq(schedules.userId, userId), eq(schedules.apiRef, apiRef))).get();
  return row ? toSchedule(row) : null;
}

/**
 * Creates a schedule and its job scheduler. Credits are checked, not reserved: the balance must pay
 * one occurrence now (else InsufficientCreditsError and nothing is created); each occurrence is
 * debited when it runs. Bad input: ScheduleInputError naming the fields. With `apiRef` (the REST
 * API's Idempotency-Key, unique per user) a repeat returns the first schedule with `duplicate`,
 * unchecked and unchanged, however late it comes.
 */
export async function createSchedule(
  userId: number,
  given: NewSchedule,
  options: { apiRef?: string } = {},
): Promise<Schedule & { duplicate: boolean }> {
  if (options.apiRef !== undefined) {
    const earlier = scheduleByApiRef(userId, options.apiRef);
    if (earlier) return { ...earlier, duplicate: true };
  }
  // Whole seconds: later occurrences are wall-clock times, which have no milliseconds.
  const input = { ...given, firstSendAt: Math.floor(given.firstSendAt / 1000) * 1000 };
  const now = clock.now();
  const issues = inputIssues(input, now);
  if (issues.length > 0) throw new ScheduleInputError(issues);
  const cost = countSegments(input.body).credits;
  const balance = getBalance(userId);
  if (balance < cost) throw new InsufficientCreditsError(cost, balance);

  const timeZone = canonicalTimeZone(input.timeZone);
  const endDate = input.repeat === "none" ? null : (input.endDate ?? null);
  const row = db
    .insert(schedules)
    .values({
      userId,
      targetKind: input.target.kind,
      toPhone: input.target.kind === "phone" ? input.target.to : null,
      groupId: input.target.kind === "group" ? input.target.groupId : null,
      body: input.body,
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
  if (!row) return { ...scheduleByApiRef(userId, options.apiRef!)!, duplicate: true };
  try {
    await armSchedule(row.id, recurrenceOf(row));
  } catch (error) {
    // The row is the record: the reconciler arms it when Redis is back, and sends what fell due.
    log("error", "scheduling", `could not arm schedule ${row.id}; the reconciler will`, error);
  }
  return { ...toSchedule(row), duplicate: false };
}

/** The owner's schedule, or null (another user's id is nobody's). */
export function getSchedule(userId: number, id: number): Schedule | null {
  const row = db.select().from(schedules).where(and(eq(schedules.id, id), eq(schedules.userId, userId))).get();
  return row ? toSchedule(row) : null;
}

/** The owner's schedules, newest first, a page at a time. */
export function listSchedules(userId: number, requestedPage = 1) {
  const total = db.select({ n: count() }).from(schedules).where(eq(schedules.userId, userId)).get()?.n ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / SCHEDULES_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(requestedPage) || 1), totalPages);
  const rows = db
    .select()
    .from(schedules)
    .where(eq(schedules.userId, userId))
    .orderBy(desc(schedules.id))
    .limit(SCHEDULES_PAGE_SIZE)
    .offset((page - 1) * SCHEDULES_PAGE_SIZE)
    .all();
  return { schedules: rows.map(toSchedule), page, totalPages, total };
}

/**
 * Stops the schedule's future occurrences; messages already created are untouched. Cancelling a
 * completed or cancelled schedule changes nothing. Another user's id: ScheduleNotFoundError.
 */
export async function cancelSchedule(userId: number, id: number): Promise<Schedule> {
  const now = new Date(clock.now());
  const row = db
    .update(schedules)
    .set({ status: "cancelled", nextRunAt: null, finishedAt: now, updatedAt: now })
    .where(and(eq(schedules.id, id), eq(schedules.userId, userId), eq(schedules.status, "active")))
    .returning()
    .get();
  if (!row) {
    const existing = getSchedule(userId, id);
    if (!existing) throw new ScheduleNotFoundError(id);
    return existing;
  }
  try {
    await disarmSchedule(id);
  } catch (error) {
    // Its occurrences check the status first, and the reconciler removes the orphan.
    log("error", "scheduling", `could not remove the job scheduler of schedule ${id}`, error);
  }
  return toSchedule(row);
}
