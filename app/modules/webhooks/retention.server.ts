// Webhook events and their delivery log are an integration aid, not a record: they go after
// WEBHOOK_RETENTION_DAYS (sooner with MESSAGE_RETENTION_DAYS, as payloads carry message text), never
// while one of their deliveries is still retrying. Run by the hourly housekeeping job.
import { withTx } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";

const queries = statements({
  // Oldest first by webhook_events_created_idx; each candidate costs one probe of webhook_deliveries_event_idx.
  deleteOldEvents: sqlText<[number, number]>(
    `delete from webhook_events where id in (
     select e.id from webhook_events e where e.created_at < ?
       and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
     order by e.created_at limit ?)`,
  ),
});

const nextTurn = () => new Promise((resume) => setImmediate(resume));

/** Deletes events created before `cutoff` (UTC ms) with no pending delivery, `batch` per transaction; their deliveries go with them. */
export async function purgeOldWebhookEvents(cutoff: number, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const changes = await withTx(async () => (await queries.deleteOldEvents.run(cutoff, batch)).changes);
    deleted += changes;
    if (changes < batch) return deleted;
    await nextTurn();
  }
}
