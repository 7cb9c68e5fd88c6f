// Browser-safe wall-clock arithmetic in IANA time zones, on Intl alone (no time-zone database to ship).

/** A local date and time as a clock on the wall shows it; month is 1-12. */
export type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's own spelling of a valid zone name (e.g. "utc" becomes "UTC"). */
export function canonicalTimeZone(timeZone: string): string {
  return formatter(timeZone).resolvedOptions().timeZone;
}

/** Every zone this runtime knows, UTC first. */
export function timeZoneNames(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
}

export function wallTimeAt(ms: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** How far the zone's clocks are ahead of UTC at that instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallAsUtc(wallTimeAt(whole, timeZone)) - whole;
}

/**
 * The instant a wall time happens in a zone. A time the clocks skip (spring forward) is moved on by
 * the gap, as the clocks were (02:30 becomes 03:30) and `skipped` says so; a time that happens twice
 * (fall back) is the first of the two.
 */
export function instantOf(wall: WallTime, timeZone: string): { ms: number; skipped: boolean } {
  const local = wallAsUtc(wall);
  // Offsets a day either side straddle any one transition.
  const before = offsetAt(local - DAY_MS, timeZone);
  const after = offsetAt(local + DAY_MS, timeZone);
  const matches = [local - before, local - after].filter((ms) => ms + offsetAt(ms, timeZone) === local);
  if (matches.length > 0) return { ms: Math.min(...matches), skipped: false };
  return { ms: local - before, skipped: true };
}

/** Adds days to a calendar date (the time of day is kept). */
export function addDays(wall: WallTime, days: number): WallTime {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "YYYY-MM-DD" */
export function formatDate(wall: Pick<WallTime, "year" | "month" | "day">): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** "YYYY-MM-DDTHH:mm", the value of a datetime-local input. */
export function formatLocalDateTime(wall: WallTime): string {
  return `${formatDate(wall)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** Reads "YYYY-MM-DD" into a wall time at midnight, or null when it is not a real date. */
export function parseDate(value: string): WallTime | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day, hour: 0, minute: 0, second: 0 };
}

/** Reads a datetime-local value ("YYYY-MM-DDTHH:mm", seconds allowed) or null. */
export function parseLocalDateTime(value: string): WallTime | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  const date = match ? parseDate(match[1]) : null;
  if (!match || !date) return null;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { ...date, hour, minute, second };
}
