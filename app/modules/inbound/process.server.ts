// After an inbound message is stored: its processing (keywords, replies) and the sweep that re-adds
// the jobs Redis lost (docs/decisions/021-outbox-and-reconcilers.md).
import { inTransaction } from "#app/db/client.server.ts";
import { statement } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { enqueueInbound, purgeStaleParts } from "#app/modules/inbound/receive.server.ts";

/** An outbox row this long past due has had time to reach a worker through the normal path. */
export const INBOUND_OUTBOX_GRACE_MS = 30_000;
const BATCH = 1_000;

const selectOutbox = statement<[number], { messageId: number }>(
  "select message_id as messageId from inbound_outbox where message_id = ?",
);
const deleteOutbox = statement<[number]>("delete from inbound_outbox where message_id = ?");
const selectStale = statement<[number, number], { messageId: number }>(
  "select message_id as messageId from inbound_outbox where due_at < ? order by due_at limit ?",
);
const postpone = statement<[number, number]>(
  "update inbound_outbox set due_at = ?, requeues = requeues + 1 where message_id = ?",
);

/** Runs what an inbound message sets off, once: its outbox row goes when it is done. */
export async function processInbound(inboundId: number): Promise<{ processed: boolean }> {
  if (!selectOutbox().get(inboundId)) return { processed: false };
  inTransaction(() => deleteOutbox().run(inboundId));
  return { processed: true };
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
