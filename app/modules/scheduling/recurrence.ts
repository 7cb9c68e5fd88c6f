// Browser-safe and pure: when a schedule's messages go out. Used by the form, the list, the runner and tests.
import type { RepeatOptions } from "bullmq";
import { type Repeat, REPEATS } from "#app/db/enums.ts";
import {
  addDays,
  daysInMonth,
  formatDate,
  instantOf,
  parseDate,
  type WallTime,
  wallTimeAt,
} from "#app/utils/time-zone.ts";

export { REPEATS, type Repeat };

export const REPEAT_LABELS: Record<Repeat, string> = {
  none: "None",
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
};

/**
 * A schedule's rule. Occurrences keep the first send's wall-clock time in `timeZone` (09:00 stays
 * 09:00 across daylight-saving changes); monthly ones keep its day of the month, or the month's last
 * day when it is shorter. `endsAt` (exclusive) is the end of the end date in `timeZone`.
 */
export type Recurrence = { repeat: Repeat; firstSendAt: number; timeZone: string; endsAt: number | null };

const DAY_MS = 86_400_000;

/** The n-th occurrence's instant (n = 0 is the first send itself). */
function occurrenceAt(rule: Recurrence, anchor: WallTime, n: number): number {
  if (n === 0) return rule.firstSendAt;
  let wall: WallTime;
  if (rule.repeat === "daily") wall = addDays(anchor, n);
  else if (rule.repeat === "weekly") wall = addDays(anchor, 7 * n);
  else {
    const months = anchor.month - 1 + n;
    const year = anchor.year + Math.floor(months / 12);
    const month = (months % 12) + 1;
    wall = { ...anchor, year, month, day: Math.min(anchor.day, daysInMonth(year, month)) };
  }
  return instantOf(wall, rule.timeZone).ms;
}

/** Occurrences before the n-th one: a safe under-estimate to start counting from. */
function estimateIndex(rule: Recurrence, anchor: WallTime, after: number): number {
  if (rule.repeat === "monthly") {
    const now = wallTimeAt(after, rule.timeZone);
    return (now.year - anchor.year) * 12 + (now.month - anchor.month) - 1;
  }
  const period = rule.repeat === "weekly" ? 7 * DAY_MS : DAY_MS;
  return Math.floor((after - rule.firstSendAt) / period) - 1;
}

/** The first occurrence strictly after `after`, or null when there is none (one-off sent, or past the end). */
export function nextOccurrence(rule: Recurrence, after: number): number | null {
  const within = (ms: number) => (rule.endsAt === null || ms < rule.endsAt ? ms : null);
  if (rule.firstSendAt > after) return within(rule.firstSendAt);
  if (rule.repeat === "none") return null;
  const anchor = wallTimeAt(rule.firstSendAt, rule.timeZone);
  // Occurrences only move forward, so counting on from an under-estimate finds the first one after.
  let n = Math.max(1, estimateIndex(rule, anchor, after));
  let at = occurrenceAt(rule, anchor, n);
  while (at <= after) at = occurrenceAt(rule, anchor, ++n);
  return within(at);
}

export function isOccurrence(rule: Recurrence, at: number): boolean {
  return nextOccurrence(rule, at - 1) === at;
}

/** The last occurrence at or before `time`, counting from a known occurrence `from` (null when none). */
export function latestOccurrence(rule: Recurrence, from: number, time: number): number | null {
  if (from > time) return null;
  let latest = from;
  for (;;) {
    const next = nextOccurrence(rule, latest);
    if (next === null || next > time) return latest;
    latest = next;
  }
}

/** Exclusive end instant of a local end date ("YYYY-MM-DD") in the zone: the next local midnight. */
export function endOfDate(date: string, timeZone: string): number {
  const day = parseDate(date);
  if (!day) throw new Error(`Not a date: ${date}`);
  return instantOf(addDays(day, 1), timeZone).ms;
}

/** The local end date of an exclusive end instant. */
export function endDateOf(endsAt: number, timeZone: string): string {
  return formatDate(wallTimeAt(endsAt - 1, timeZone));
}

export type TimingIssue = { field: "firstSend" | "endDate"; message: string };

export const TIMING_MESSAGES = {
  past: "The first send must be in the future",
  endBeforeStart: "End Date must be on or after the first send",
} as const;

/**
 * The rules every new schedule meets, wherever it comes from (form, API): the first send in the
 * future; a repeating schedule's end date (optional) on or after the first send's date. A one-off
 * ignores the end date.
 */
export function timingIssues(
  input: { firstSendAt: number; timeZone: string; repeat: Repeat; endDate: string | null },
  now: number,
): TimingIssue[] {
  const issues: TimingIssue[] = [];
  if (input.firstSendAt <= now) issues.push({ field: "firstSend", message: TIMING_MESSAGES.past });
  if (
    input.repeat !== "none" &&
    input.endDate !== null &&
    input.endDate < formatDate(wallTimeAt(input.firstSendAt, input.timeZone))
  ) {
    issues.push({ field: "endDate", message: TIMING_MESSAGES.endBeforeStart });
  }
  return issues;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function ordinal(n: number): string {
  const suffix =
    n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

/** "Daily at 09:00", "Weekly on Monday at 09:00", "Monthly on the 31st at 09:00 (or the month's last day)". */
export function describeRecurrence(rule: Pick<Recurrence, "repeat" | "firstSendAt" | "timeZone">): string {
  const wall = wallTimeAt(rule.firstSendAt, rule.timeZone);
  const time = `${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}`;
  switch (rule.repeat) {
    case "none":
      return "Once";
    case "daily":
      return `Daily at ${time}`;
    case "weekly":
      return `Weekly on ${WEEKDAYS[new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()]} at ${time}`;
    case "monthly":
      return `Monthly on the ${ordinal(wall.day)} at ${time}${wall.day > 28 ? " (or the month's last day)" : ""}`;
  }
}

// BullMQ's job schedulers carry the rule: the repeat kind as the pattern, the first send as the
// start date, the zone and the end; scheduleRepeatStrategy reads it back (cron cannot say "the 31st
// or the month's last day").
export function repeatOptionsOf(rule: Recurrence): RepeatOptions {
  return {
    pattern: rule.repeat,
    startDate: rule.firstSendAt,
    tz: rule.timeZone,
    ...(rule.endsAt === null ? {} : { endDate: rule.endsAt }),
  };
}

/** BullMQ's `repeatStrategy` for the schedule queue: the next occurrence after `millis`. */
export function scheduleRepeatStrategy(millis: number, opts: RepeatOptions): number | undefined {
  const rule: Recurrence = {
    repeat: opts.pattern as Repeat,
    firstSendAt: new Date(opts.startDate ?? Number.NaN).getTime(),
    timeZone: opts.tz ?? "UTC",
    endsAt: opts.endDate === undefined ? null : new Date(opts.endDate).getTime(),
  };
  return nextOccurrence(rule, millis) ?? undefined;
}
