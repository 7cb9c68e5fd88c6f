// After an inbound message is stored: its processing (keywords, replies) and the sweep that re-adds
// the jobs Redis lost (docs/decisions/021-outbox-and-reconcilers.md).
import { withTx } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { purgeStaleParts } from "#app/modules/inbound/receive.server.ts";
import { addSmsInboundJobs } from "#app/queue/jobs/sms-inbound.server.ts";
import { applyInboundKeyword } from "#app/modules/inbound/keywords.server.ts";

/** An outbox row this long past due has had time to reach a worker through the normal path. */
const INBOUND_OUTBOX_GRACE_MS = 30_000;
const BATCH = 1_000;

const queries = statements({
  // One statement per job, not per message: a job carries up to INBOUND_JOB_BATCH ids.
  pending: sqlText<
    [string],
    { id: number; phone: string; toAddress: string; accountId: number | null; body: string; receivedAt: number }
  >({
    sqlite: `select m.id, m.from_phone as phone, m.to_address as toAddress, m.user_id as accountId, m.body,
     m.received_at as receivedAt
   from inbound_outbox o join inbound_messages m on m.id = o.message_id
   where o.message_id in (select value from jsonb_each(?)) order by m.id`,
    postgres: `select m.id, m.from_phone as phone, m.to_address as "toAddress", m.user_id as "accountId", m.body,
     m.received_at as "receivedAt"
   from inbound_outbox o join inbound_messages m on m.id = o.message_id
   where o.message_id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb))) order by m.id`,
  }),
  deleteOutbox: sqlText<[string]>({
    sqlite: "delete from inbound_outbox where message_id in (select value from jsonb_each(?))",
    postgres: `delete from inbound_outbox where message_id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  stale: sqlText<[number, number], { messageId: number }>(
    "select message_id as messageId from inbound_outbox where due_at < ? order by due_at limit ?",
  ),
  postpone: sqlText<[number, number]>(
    "update inbound_outbox set due_at = ?, requeues = requeues + 1 where message_id = ?",
  ),
});

/**
 * Runs what each inbound message sets off (its keyword: STOP, START, HELP), then drops their outbox
 * rows. A retry after a crash in between runs them again: a keyword's effects are keyed by the message.
 */
export async function processInbound(inboundIds: number[]) {
  const done: number[] = [];
  const keywords: Record<string, number> = {};
  for (const inbound of await queries.pending.all(JSON.stringify(inboundIds))) {
    const outcome = await applyInboundKeyword(inbound);
    if (outcome) keywords[outcome.kind] = (keywords[outcome.kind] ?? 0) + 1;
    done.push(inbound.id);
  }
  await withTx(() => queries.deleteOutbox.run(JSON.stringify(done)));
  return { processed: done.length, keywords };
}

export async function reconcileInbound(): Promise<{ enqueued: number; partsPurged: number }> {
  const now = clock.now();
  const stale = (await queries.stale.all(now - INBOUND_OUTBOX_GRACE_MS, BATCH)).map((row) => row.messageId);
  await withTx(async () => {
    for (const id of stale) await queries.postpone.run(now, id);
  });
  await addSmsInboundJobs(stale);
  return { enqueued: stale.length, partsPurged: await purgeStaleParts(now) };
}
