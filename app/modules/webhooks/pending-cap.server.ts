// An account's webhook deliveries waiting in SQLite (and as delayed jobs in Redis) are capped: past
// WEBHOOK_MAX_PENDING_PER_ACCOUNT the oldest retries are dropped, so receivers that keep failing
// cannot fill the shared Redis for a day of retries (docs/decisions/107-webhook-sends-bounded.md).
import { eq } from "drizzle-orm";
import { withTxWithoutStalling } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";
import { webhookDeliveriesDroppedMail } from "#app/modules/webhooks/mails.server.ts";

export const DROPPED_ANSWER = "Dropped: too many deliveries of this account were waiting to be retried";

// One e-mail a day per account at most, however long its receivers keep failing.
const droppedMails: Limit = { name: "webhook-dropped-mail", limit: 1, windowMs: 24 * 3600_000 };

const queries = statements({
  accountsOverCap: sqlText<[number], { userId: number; pending: number }>(
    `select e.user_id as userId, count(*) as pending
   from webhook_deliveries d join webhook_events e on e.id = d.event_id
   where d.status = 'pending' group by e.user_id having count(*) > ?`,
  ),
  // Retries only (attempts > 0): a first attempt has not failed yet.
  dropOldestRetries: sqlText<[string, number, number, number], { endpointId: number | null }>(
    `update webhook_deliveries set status = 'failed', last_answer = ?, next_attempt_at = ?
   where id in (
     select d.id from webhook_deliveries d join webhook_events e on e.id = d.event_id
     where e.user_id = ? and d.status = 'pending' and d.attempts > 0 order by d.id limit ?)
   returning endpoint_id as endpointId`,
  ),
  markFailing: sqlText<[number, number], { url: string }>(
    `update webhook_endpoints set failing_since = coalesce(failing_since, ?) where id = ? returning url`,
  ),
});

export type CapResult = { dropped: number; accounts: number };

/**
 * Drops the oldest retries of every account with more than WEBHOOK_MAX_PENDING_PER_ACCOUNT pending
 * deliveries, down to the cap; their endpoints are marked failing and the owner is e-mailed (once a
 * day). Run by the webhooks reconciler; their jobs in Redis find the rows no longer pending and stop.
 */
export async function capPendingDeliveries(now = clock.now()): Promise<CapResult> {
  const cap = getEnv().WEBHOOK_MAX_PENDING_PER_ACCOUNT;
  const result: CapResult = { dropped: 0, accounts: 0 };
  for (const { userId, pending } of await queries.accountsOverCap.all(cap)) {
    const dropped = await withTxWithoutStalling(async () => {
      const rows = await queries.dropOldestRetries.all(DROPPED_ANSWER, now, userId, pending - cap);
      const endpointIds = new Set(rows.flatMap((row) => (row.endpointId === null ? [] : [row.endpointId])));
      const urls: string[] = [];
      for (const id of endpointIds) urls.push((await queries.markFailing.get(now, id))!.url);
      return { count: rows.length, urls };
    });
    if (dropped.count === 0) continue;
    result.dropped += dropped.count;
    result.accounts += 1;
    log("warn", "webhooks", `dropped ${dropped.count} webhook retries of user ${userId}: over ${cap} pending`);
    if (!(await hit(droppedMails, String(userId))).allowed) continue;
    await withTxWithoutStalling(async (tx) => {
      const owner = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
      if (owner)
        await queueMail(tx, {
          userId,
          kind: "webhook_deliveries_dropped",
          to: owner.email,
          ...webhookDeliveriesDroppedMail(dropped.count, cap, dropped.urls),
        });
    });
  }
  return result;
}
