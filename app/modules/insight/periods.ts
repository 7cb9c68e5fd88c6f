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
  return midnights.slice(0, count).map((wall, i) => ({
    date: formatDate(wall),
    start: instantOf(wall, timeZone).ms,
    end: instantOf(midnights[i + 1], timeZone).ms,
  }));
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
