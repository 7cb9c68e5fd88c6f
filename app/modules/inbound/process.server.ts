// After an inbound message is stored: its processing (keywords, replies) and the sweep that re-adds
// the jobs Redis lost (docs/decisions/021-outbox-and-reconcilers.md).
import { inTransaction } from "#app/db/client.server.ts";
import { statement } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { enqueueInbound, purgeStaleParts } from "#app/modules/inbound/receive.server.ts";
import { applyInboundKeyword } from "#app/modules/opt-outs/keywords.server.ts";

/** An outbox row this long past due has had time to reach a worker through the normal path. */
export const INBOUND_OUTBOX_GRACE_MS = 30_000;
const BATCH = 1_000;

const selectPending = statement<
  [number],
  { phone: string; toAddress: string; accountId: number | null; body: string; receivedAt: number }
>(
  `select m.from_phone as phone, m.to_address as toAddress, m.user_id as accountId, m.body, m.received_at as receivedAt
   from inbound_outbox o join inbound_messages m on m.id = o.message_id where o.message_id = ?`,
);
const deleteOutbox = statement<[number]>("delete from inbound_outbox where message_id = ?");
const selectStale = statement<[number, number], { messageId: number }>(
  "select message_id as messageId from inbound_outbox where due_at < ? order by due_at limit ?",
);
const postpone = statement<[number, number]>(
  "update inbound_outbox set due_at = ?, requeues = requeues + 1 where message_id = ?",
);

/**
 * Runs what an inbound message sets off (its keyword: STOP, START, HELP), then drops its outbox row.
 * A retry after a crash in between runs it again: the keyword's effects are keyed by the message.
 */
export async function processInbound(inboundId: number) {
  const inbound = selectPending().get(inboundId);
  if (!inbound) return { processed: false, keyword: null };
  const outcome = await applyInboundKeyword(inbound);
  inTransaction(() => deleteOutbox().run(inboundId));
  return { processed: true, keyword: outcome?.kind ?? null };
}

export async function reconcileInbound(): Promise<{ enqueued: number; partsPurged: number }> {
  const now = clock.now();
  const stale = selectStale()
    .all(now - INBOUND_OUTBOX_GRACE_MS, BATCH)
    .map((row) => row.messageId);
  inTransaction(() => stale.forEach((id) => postpone().run(now, id)));
  await enqueueInbound(stale);
  return { enqueued: stale.length, partsPurged: purgeStaleParts(now) };
}
