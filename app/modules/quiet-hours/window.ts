// Browser-safe: when a quiet-hours window holds a message back, in the recipient's zone.
import { addDays, instantOf, wallTimeAt } from "#app/utils/time-zone.ts";

/** Minutes after local midnight; start > end wraps midnight (21:00-08:00 is 1260-480). */
export type QuietWindow = { startMinute: number; endMinute: number };

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "HH:MM" (24-hour) to minutes after midnight, or null. */
export function parseTimeOfDay(value: string): number | null {
  const match = TIME_OF_DAY.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** Minutes after midnight to "HH:MM". */
export function formatTimeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

function isInside(window: QuietWindow, minute: number): boolean {
  const { startMinute: start, endMinute: end } = window;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When a message sent at `now` may reach a recipient whose clocks are in `timeZone`: null when it
 * is outside the window, else the instant the window ends there (the end's wall time; on a day the
 * clocks skip it, the moment they jump past it).
 */
export function quietUntil(window: QuietWindow, timeZone: string, now: number): number | null {
  const wall = wallTimeAt(now, timeZone);
  const minute = wall.hour * 60 + wall.minute;
  if (!isInside(window, minute)) return null;
  // Past the start of a window that wraps midnight: it ends tomorrow; otherwise today.
  const day = minute >= window.endMinute ? addDays(wall, 1) : wall;
  const end = { ...day, hour: Math.floor(window.endMinute / 60), minute: window.endMinute % 60, second: 0 };
  return instantOf(end, timeZone).ms;
}
