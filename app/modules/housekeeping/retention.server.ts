// MESSAGE_RETENTION_DAYS and SUPPORT_RETENTION_DAYS: old rows go in small batches from the hourly
// housekeeping job (docs/operations.md#retention, docs/decisions/082-retention.md).
import { withTx } from "#app/db/client.server.ts";
import { type RawStatement, sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { MESSAGE_STATUSES, type MessageStatus } from "#app/modules/messaging/message-status.ts";
import { purgeOldWebhookEvents } from "#app/modules/webhooks/retention.server.ts";

/** Rows per delete: each is one short write transaction, and other writers go between two. */
export const RETENTION_BATCH = 500;
const DAY_MS = 86_400_000;

// Final statuses only: a message the worker or a receipt may still change stays whatever its age.
const IN_PROGRESS: readonly MessageStatus[] = ["queued", "submitting", "submitted"];
const DELETABLE = new Set(MESSAGE_STATUSES.filter((status) => !IN_PROGRESS.includes(status)));

type AgedRow = { id: number; createdAt: number };

const queries = statements({
  oldestMessages: sqlText<[number, number], AgedRow & { status: MessageStatus }>(
    "select id, created_at as createdAt, status from sms_messages where id > ? order by id limit ?",
  ),
  // Their parts and outbox rows go with them (foreign keys, on delete cascade); the ledger keeps its entries.
  deleteMessages: sqlText<[string]>({
    sqlite: "delete from sms_messages where id in (select value from jsonb_each(?))",
    postgres: `delete from sms_messages where id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  // An inbound message whose keyword (STOP, START, HELP) is still to be processed has an outbox row.
  oldestInbound: sqlText<[number, number], AgedRow & { pending: 0 | 1 }>(
    `select id, received_at as createdAt, exists(select 1 from inbound_outbox o where o.message_id = m.id) as pending
     from inbound_messages m where id > ? order by id limit ?`,
  ),
  deleteInbound: sqlText<[string]>({
    sqlite: "delete from inbound_messages where id in (select value from jsonb_each(?))",
    postgres: `delete from inbound_messages where id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  deleteSupportRequests: sqlText<[number, number]>(
    `delete from support_requests where id in (
     select id from support_requests where created_at < ? and mail_status != 'pending' order by id limit ?)`,
  ),
});

const nextTurn = () => new Promise((resume) => setImmediate(resume));

/**
 * Deletes the deletable rows created before `days` ago. Walks the table in id order (ids grow with
 * time) and stops at the first row inside the window, so an hourly run that finds nothing reads one
 * batch, not the table.
 */
async function purgeOld<Row extends AgedRow>(
  days: number,
  batch: number,
  table: {
    oldest: RawStatement<[number, number], Row>;
    remove: RawStatement<[string], unknown>;
  },
  deletable: (row: Row) => boolean,
): Promise<number> {
  const cutoff = clock.now() - days * DAY_MS;
  let deleted = 0;
  for (let after = 0; ;) {
    const rows = await table.oldest.all(after, batch);
    const window = rows.findIndex((row) => row.createdAt >= cutoff);
    const old = (window === -1 ? rows : rows.slice(0, window)).filter(deletable);
    if (old.length > 0) {
      const ids = JSON.stringify(old.map((row) => row.id));
      deleted += await withTx(async () => (await table.remove.run(ids)).changes);
    }
    if (window !== -1 || rows.length < batch) return deleted;
    after = rows[rows.length - 1].id;
    await nextTurn();
  }
}

/** Deletes finished messages created before `days` ago. */
export function purgeOldMessages(days: number, batch = RETENTION_BATCH): Promise<number> {
  return purgeOld(days, batch, { oldest: queries.oldestMessages, remove: queries.deleteMessages }, (row) =>
    DELETABLE.has(row.status),
  );
}

/** Deletes inbound messages received before `days` ago, once their keyword has been processed. */
export function purgeOldInbound(days: number, batch = RETENTION_BATCH): Promise<number> {
  return purgeOld(days, batch, { oldest: queries.oldestInbound, remove: queries.deleteInbound }, (row) => !row.pending);
}

/** Deletes support requests created before `days` ago, except one whose e-mail is still being tried. */
export async function purgeOldSupportRequests(days: number, batch = RETENTION_BATCH): Promise<number> {
  const cutoff = clock.now() - days * DAY_MS;
  let deleted = 0;
  for (;;) {
    const changes = await withTx(async () => (await queries.deleteSupportRequests.run(cutoff, batch)).changes);
    deleted += changes;
    if (changes < batch) return deleted;
    await nextTurn();
  }
}

/** The retention in days, undefined where rows are kept forever (for the admin's overview). */
export function retentionSettings(): { messageDays?: number; supportDays?: number } {
  const { MESSAGE_RETENTION_DAYS, SUPPORT_RETENTION_DAYS } = getEnv();
  return { messageDays: MESSAGE_RETENTION_DAYS, supportDays: SUPPORT_RETENTION_DAYS };
}

/** The housekeeping job's retention step: what each setting removed (nothing while it is unset). */
export async function applyRetention(
  batch = RETENTION_BATCH,
): Promise<{ messages: number; inboundMessages: number; supportRequests: number; webhookEvents: number }> {
  const { MESSAGE_RETENTION_DAYS, SUPPORT_RETENTION_DAYS, WEBHOOK_RETENTION_DAYS } = getEnv();
  // A webhook payload carries the message's text: it never outlives the message's retention.
  const webhookDays = Math.min(WEBHOOK_RETENTION_DAYS, MESSAGE_RETENTION_DAYS ?? Infinity);
  return {
    messages: MESSAGE_RETENTION_DAYS ? await purgeOldMessages(MESSAGE_RETENTION_DAYS, batch) : 0,
    inboundMessages: MESSAGE_RETENTION_DAYS ? await purgeOldInbound(MESSAGE_RETENTION_DAYS, batch) : 0,
    supportRequests: SUPPORT_RETENTION_DAYS ? await purgeOldSupportRequests(SUPPORT_RETENTION_DAYS, batch) : 0,
    webhookEvents: await purgeOldWebhookEvents(clock.now() - webhookDays * DAY_MS, batch),
  };
}
