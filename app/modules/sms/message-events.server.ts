// The message.* events, noted by the sms module inside the transaction of a batch of status changes
// (docs/decisions/116-message-events-per-batch.md). A batch of accounts without an endpoint for the
// event and without statusCallbacks costs Map look-ups and usually no query; the events wanted
// cost one read of the messages, one of their callbacks (when any can have one) and one INSERT
// each of events and deliveries.
import { type Executor, rolledBackTransactions } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { ensureCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import { toMessageResource } from "#app/modules/sms/message-resource.ts";
import { findOwnMessages } from "#app/modules/sms/own-messages.server.ts";
import type { WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { recordEvents } from "#app/modules/webhooks/outbox.server.ts";
import { wantsEvent } from "#app/modules/webhooks/subscriptions.server.ts";

const EVENT_OF_STATUS: Partial<Record<MessageStatus, WebhookEventType>> = {
  submitted: "message.sent",
  delivered: "message.delivered",
  undelivered: "message.failed",
  expired: "message.failed",
  rejected: "message.failed",
  failed: "message.failed",
};

const queries = statements({
  insertCallbacks: sqlText<[string]>({
    sqlite: `insert into webhook_message_callbacks (message_id, url)
   select value ->> '$.messageId', value ->> '$.url' from jsonb_each(?)`,
    postgres: `insert into webhook_message_callbacks (message_id, url)
   select (value ->> 'messageId')::bigint, value ->> 'url' from jsonb_array_elements($1::jsonb)`,
  }),
  callbacks: sqlText<[string], { messageId: number; url: string }>({
    sqlite: `select message_id as messageId, url from webhook_message_callbacks
   where message_id in (select value from jsonb_each(?))`,
    postgres: `select message_id as "messageId", url from webhook_message_callbacks
   where message_id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  // Which of these accounts have a callback secret, as of the newest message. PostgreSQL: json_agg, = any($1).
  callbackAccounts: sqlText<[string], { horizon: number | null; accounts: string }>({
    sqlite: `select (select max(id) from sms_messages) as horizon,
     (select json_group_array(user_id) from webhook_callback_secrets
      where user_id in (select value from jsonb_each(?))) as accounts`,
    postgres: `select (select max(id) from sms_messages) as horizon,
     (select json_agg(user_id)::text from webhook_callback_secrets
      where user_id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))) as accounts`,
  }),
});

type Moved = { userId: number; messageId: number };

// A callback is saved in the transaction that inserts its message (ids only grow) and makes its
// account's callback secret there too: an account without a secret when message N was the newest
// has no callback on any message up to N, for good. Kept per account seen; read again only for a
// newer message of an account without one.
const withSecret = new Set<number>();
const noSecretUpTo = new Map<number, number>();
// What was learned inside a transaction rolled back since may count ids SQLite gives again.
let rolledBackWhenLearned = 0;

const mayHaveCallback = (m: Moved) => withSecret.has(m.userId) || m.messageId > (noSecretUpTo.get(m.userId) ?? 0);

/** The statusCallback URLs of these messages by id: no query when none of them can have one. */
async function callbacksOf(messages: Moved[]): Promise<Map<number, string>> {
  if (rolledBackTransactions() !== rolledBackWhenLearned) {
    noSecretUpTo.clear();
    rolledBackWhenLearned = rolledBackTransactions();
  }
  const unknown = new Set(messages.filter((m) => !withSecret.has(m.userId) && mayHaveCallback(m)).map((m) => m.userId));
  if (unknown.size > 0) {
    const row = (await queries.callbackAccounts.get(JSON.stringify([...unknown])))!;
    const found = new Set(JSON.parse(row.accounts) as number[]);
    for (const userId of unknown) {
      if (found.has(userId)) withSecret.add(userId);
      else noSecretUpTo.set(userId, row.horizon ?? 0);
    }
  }
  const ids = messages.filter(mayHaveCallback).map((m) => m.messageId);
  if (ids.length === 0) return new Map();
  return new Map((await queries.callbacks.all(JSON.stringify(ids))).map((row) => [row.messageId, row.url]));
}

/**
 * Keeps messages' statusCallback URLs (and makes the account's callback secret): inside the
 * transaction that inserts the messages, which noteMessageStatuses counts on. One INSERT.
 */
export async function saveStatusCallbacks(
  tx: Executor,
  userId: number,
  callbacks: { messageId: number; url: string }[],
) {
  if (callbacks.length === 0) return;
  await ensureCallbackSecret(tx, userId);
  await queries.insertCallbacks.run(JSON.stringify(callbacks));
}

/** saveStatusCallbacks for one message. */
export async function saveStatusCallback(tx: Executor, userId: number, messageId: number, url: string): Promise<void> {
  await saveStatusCallbacks(tx, userId, [{ messageId, url }]);
}

export type MessageMove = { userId: number; messageId: number; status: MessageStatus };

/**
 * Messages moved to these statuses: records the event of each move someone wants, in the order
 * given (a message's later move has the later event id). Inside the transaction of the moves, after
 * them: each event carries its message as it is then (as GET /api/v1/messages/{id} shows it).
 */
export async function noteMessageStatuses(moves: MessageMove[], now: number): Promise<void> {
  const evented = moves.flatMap((move) => {
    const type = EVENT_OF_STATUS[move.status];
    return type ? [{ ...move, type }] : [];
  });
  if (evented.length === 0) return;
  const callbacks = await callbacksOf(evented);
  const wanted = [];
  for (const move of evented)
    if (callbacks.has(move.messageId) || (await wantsEvent(move.userId, move.type))) wanted.push(move);
  if (wanted.length === 0) return;
  const rows = await findOwnMessages(wanted.map((move) => ({ userId: move.userId, id: move.messageId })));
  await recordEvents(
    wanted.flatMap((move) => {
      const row = rows.get(move.messageId);
      if (!row) return [];
      const callbackUrl = callbacks.get(move.messageId) ?? null;
      return [{ userId: move.userId, type: move.type, data: toMessageResource(row), callbackUrl }];
    }),
    now,
  );
}
