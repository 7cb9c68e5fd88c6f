// Keeps message_rollup (docs/decisions/045-message-rollup.md) from the writes it counts: each batch
// adds its changes with one upsert, summed per account and bucket first. Per-row triggers did this
// until issue 29 at a write per row, about 26-30 µs of a message's CPU (docs/benchmark-log.md). In the
// data layer, as the triggers were: sms and credits call it without importing a domain folder above them.
// On PostgreSQL the changes are appended to message_rollup_changes and folded in by the SMS reconciler.
import { ROLLUP_BUCKET_MS } from "#app/db/schema/insight.ts";
import { usesPostgres } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";

/** What one write changes in one account's counts at one instant (a message's creation time, an entry's booking). */
export type RollupChange = {
  userId: number;
  at: number;
  pending?: number;
  delivered?: number;
  failed?: number;
  credits?: number;
};

type Row = [userId: number, bucket: number, pending: number, delivered: number, failed: number, credits: number];

const queries = statements({
  addRows: sqlText<[string]>({
    sqlite: `insert into message_rollup (user_id, bucket, pending, delivered, failed, credits)
   select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 from jsonb_each(?) where true
   on conflict do update set pending = pending + excluded.pending, delivered = delivered + excluded.delivered,
     failed = failed + excluded.failed, credits = credits + excluded.credits`,
    // Appended, never a hot row (decision 131): foldRollupChanges adds them to message_rollup later.
    postgres: `insert into message_rollup_changes (user_id, bucket, pending, delivered, failed, credits)
   select (value ->> 0)::bigint, (value ->> 1)::bigint, (value ->> 2)::bigint, (value ->> 3)::bigint,
     (value ->> 4)::bigint, (value ->> 5)::bigint
   from jsonb_array_elements($1::jsonb)`,
  }),
  // One statement, so a reader's snapshot sees each change either still appended or already folded.
  fold: sqlText<[], { rows: number }>({
    // SQLite adds to message_rollup directly: nothing to fold, and foldRollupChanges does not ask.
    sqlite: "select 0 as rows",
    postgres: `with moved as (delete from message_rollup_changes returning *),
     folded as (insert into message_rollup (user_id, bucket, pending, delivered, failed, inbound, credits)
       select user_id, bucket, sum(pending), sum(delivered), sum(failed), sum(inbound), sum(credits)
       from moved group by user_id, bucket
       on conflict (user_id, bucket) do update set pending = message_rollup.pending + excluded.pending,
         delivered = message_rollup.delivered + excluded.delivered, failed = message_rollup.failed + excluded.failed,
         inbound = message_rollup.inbound + excluded.inbound, credits = message_rollup.credits + excluded.credits)
   select count(*)::int as rows from moved`,
  }),
});

/** Adds the changes to the rollup inside the caller's transaction: one statement, none when they sum to nothing. */
export async function addToRollup(changes: RollupChange[]): Promise<void> {
  const rows = new Map<string, Row>();
  for (const change of changes) {
    const bucket = change.at - (change.at % ROLLUP_BUCKET_MS);
    const key = `${change.userId}:${bucket}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = [change.userId, bucket, 0, 0, 0, 0]));
    row[2] += change.pending ?? 0;
    row[3] += change.delivered ?? 0;
    row[4] += change.failed ?? 0;
    row[5] += change.credits ?? 0;
  }
  const changed = [...rows.values()].filter((row) => row[2] !== 0 || row[3] !== 0 || row[4] !== 0 || row[5] !== 0);
  if (changed.length > 0) await queries.addRows.run(JSON.stringify(changed));
}

/**
 * PostgreSQL: moves the appended changes into message_rollup, summed, in one statement of its own
 * (the SMS reconciler's job). Returns the changes moved; SQLite has none.
 */
export async function foldRollupChanges(): Promise<number> {
  if (!usesPostgres()) return 0;
  return (await queries.fold.get())?.rows ?? 0;
}
