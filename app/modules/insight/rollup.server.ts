// Reads message_rollup (docs/decisions/045-message-rollup.md): its 15-minute buckets summed into local days.
import { statement } from "#app/db/statements.server.ts";
import type { DayCounts, LocalDay } from "#app/modules/insight/periods.ts";

type Row = Omit<DayCounts, "date"> & { day: number };

const SUMS = `d.key as day, sum(r.pending) as pending, sum(r.delivered) as delivered, sum(r.failed) as failed,
  sum(r.inbound) as inbound, sum(r.credits) as credits`;
// Each day is one range scan of the (user_id, bucket) key; the days travel as a JSON array of [start, end].
const oneAccountByDay = statement<[string, number], Row>(
  `select ${SUMS} from json_each(?) d join message_rollup r
     on r.user_id = ? and r.bucket >= d.value ->> 0 and r.bucket < d.value ->> 1
   group by d.key`,
);
const everyAccountByDay = statement<[string], Row>(
  `select ${SUMS} from json_each(?) d join message_rollup r indexed by message_rollup_bucket_idx
     on r.bucket >= d.value ->> 0 and r.bucket < d.value ->> 1
   group by d.key`,
);

/** Counts per local day, for one account or (userId null) every account. */
export function countsByDay(userId: number | null, days: LocalDay[]): DayCounts[] {
  const counts = days.map((day) => ({ date: day.date, pending: 0, delivered: 0, failed: 0, inbound: 0, credits: 0 }));
  const ranges = JSON.stringify(days.map((day) => [day.start, day.end]));
  const rows = userId === null ? everyAccountByDay().all(ranges) : oneAccountByDay().all(ranges, userId);
  for (const { day, ...sums } of rows) Object.assign(counts[day], sums);
  return counts;
}

const topSenders = statement<[number, number, number], { userId: number; sent: number }>(
  `select user_id as userId, sum(pending + delivered + failed) as sent
   from message_rollup indexed by message_rollup_bucket_idx
   where bucket >= ? and bucket < ?
   group by user_id having sent > 0 order by sent desc, user_id limit ?`,
);

/** The accounts that sent the most messages in [start, end). */
export function topSendersBetween(start: number, end: number, limit: number) {
  return topSenders().all(start, end, limit);
}
