// Browser-safe: the dashboards' periods and the local days they cover.
import { addDays, formatDate, instantOf, wallTimeAt } from "#app/utils/time-zone.ts";

/** The periods a dashboard offers, in days; the first is the default. */
export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];

/** The period a `?days=` value names, or the default for anything else. */
export function parsePeriod(value: string | null): Period {
  return PERIODS.find((days) => String(days) === value) ?? PERIODS[0];
}

/** One calendar day in a time zone: [start, end) in epoch ms (23 or 25 hours across a DST change). */
export type LocalDay = { date: string; start: number; end: number };

/** The last `count` calendar days in `timeZone`, today last. */
export function lastLocalDays(count: number, timeZone: string, now: number): LocalDay[] {
  const today = { ...wallTimeAt(now, timeZone), hour: 0, minute: 0, second: 0 };
  const midnights = Array.from({ length: count + 1 }, (_, i) => addDays(today, i - count + 1));
  const instants = midnights.map((wall) => instantOf(wall, timeZone).ms);
  return midnights.slice(0, count).map((wall, i) => ({
    date: formatDate(wall),
    start: instants[i],
    end: instants[i + 1],
  }));
}

// Working out 90 local midnights with Intl takes milliseconds; they only change at the next one.
const recent = new Map<string, LocalDay[]>();
const RECENT_LIMIT = 500;

/** lastLocalDays, remembered per zone and period until today ends. */
export function lastLocalDaysCached(count: number, timeZone: string, now: number): LocalDay[] {
  const key = `${count}|${timeZone}`;
  const cached = recent.get(key);
  const today = cached?.at(-1);
  if (today && today.start <= now && now < today.end) return cached!;
  const days = lastLocalDays(count, timeZone, now);
  if (recent.size >= RECENT_LIMIT) recent.clear();
  recent.set(key, days);
  return days;
}

/** One local day's counts: messages by outcome, inbound messages, credits spent (debits less refunds). */
export type DayCounts = {
  date: string;
  pending: number;
  delivered: number;
  failed: number;
  inbound: number;
  credits: number;
};
