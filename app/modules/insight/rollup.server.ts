// Reads message_rollup (docs/decisions/045-message-rollup.md): its 15-minute buckets summed into local days.
import { sqlText, statements } from "#app/db/statements.server.ts";
import type { DayCounts, LocalDay } from "#app/modules/insight/periods.ts";

type Row = Omit<DayCounts, "date"> & { day: number };

const SUMS = `d.key as day, sum(r.pending) as pending, sum(r.delivered) as delivered, sum(r.failed) as failed,
  sum(r.inbound) as inbound, sum(r.credits) as credits`;
// PostgreSQL numbers WITH ORDINALITY from 1.
const PG_SUMS = SUMS.replace("d.key as day", "d.key - 1 as day");
// PostgreSQL: the folded counts and the changes appended since (decision 131).
const PG_ROLLUP = `(select user_id, bucket, pending, delivered, failed, inbound, credits from message_rollup
   union all select user_id, bucket, pending, delivered, failed, inbound, credits from message_rollup_changes)`;
const queries = statements({
  // Each day is one range scan of the (user_id, bucket) key; the days travel as a JSON array of [start, end].
  oneAccountByDay: sqlText<[string, number], Row>({
    sqlite: `select ${SUMS} from jsonb_each(?) d join message_rollup r
     on r.user_id = ? and r.bucket >= d.value ->> 0 and r.bucket < d.value ->> 1
   group by d.key`,
    postgres: `select ${PG_SUMS} from jsonb_array_elements($1::jsonb) with ordinality d(value, key) join ${PG_ROLLUP} r
     on r.user_id = $2 and r.bucket >= (d.value ->> 0)::bigint and r.bucket < (d.value ->> 1)::bigint
   group by d.key`,
  }),
  everyAccountByDay: sqlText<[string], Row>({
    sqlite: `select ${SUMS} from jsonb_each(?) d join message_rollup r indexed by message_rollup_bucket_idx
     on r.bucket >= d.value ->> 0 and r.bucket < d.value ->> 1
   group by d.key`,
    postgres: `select ${PG_SUMS} from jsonb_array_elements($1::jsonb) with ordinality d(value, key) join ${PG_ROLLUP} r
     on r.bucket >= (d.value ->> 0)::bigint and r.bucket < (d.value ->> 1)::bigint
   group by d.key`,
  }),
  topSenders: sqlText<[number, number, number], { userId: number; sent: number }>({
    sqlite: `select user_id as userId, sum(pending + delivered + failed) as sent
   from message_rollup indexed by message_rollup_bucket_idx
   where bucket >= ? and bucket < ?
   group by user_id having sent > 0 order by sent desc, user_id limit ?`,
    postgres: `select user_id as "userId", sum(pending + delivered + failed) as sent
   from ${PG_ROLLUP} r
   where bucket >= $1 and bucket < $2
   group by user_id having sum(pending + delivered + failed) > 0 order by sent desc, user_id limit $3`,
  }),
});

/** Counts per local day, for one account or (userId null) every account. */
export async function countsByDay(userId: number | null, days: LocalDay[]): Promise<DayCounts[]> {
  const counts = days.map((day) => ({ date: day.date, pending: 0, delivered: 0, failed: 0, inbound: 0, credits: 0 }));
  const ranges = JSON.stringify(days.map((day) => [day.start, day.end]));
  const rows =
    userId === null ? await queries.everyAccountByDay.all(ranges) : await queries.oneAccountByDay.all(ranges, userId);
  for (const { day, ...sums } of rows) Object.assign(counts[day], sums);
  return counts;
}

/** The accounts that sent the most messages in [start, end). */
export async function topSendersBetween(start: number, end: number, limit: number) {
  return await queries.topSenders.all(start, end, limit);
}
