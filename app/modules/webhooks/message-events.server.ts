// The message.* events, noted by the sms module inside the transaction of each status change. An
// account with no endpoint for the event and a message without a statusCallback costs a Map look-up
// and one primary-key read here.
import type { Executor } from "#app/db/client.server.ts";
import { statement } from "#app/db/statements.server.ts";
import { ensureCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { MessageStatus } from "#app/modules/sms/message-status.ts";
import type { WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { recordEvent } from "#app/modules/webhooks/outbox.server.ts";
import { wantsEvent } from "#app/modules/webhooks/subscriptions.server.ts";

const EVENT_OF_STATUS: Partial<Record<MessageStatus, WebhookEventType>> = {
  submitted: "message.sent",
  delivered: "message.delivered",
  undelivered: "message.failed",
  expired: "message.failed",
  rejected: "message.failed",
  failed: "message.failed",
};

type MessageRow = {
  id: number;
  to: string;
  from: string | null;
  body: string;
  status: MessageStatus;
  encoding: string;
  segments: number;
  credits: number;
  groupSendId: number | null;
  error: string | null;
  createdAt: number;
  submittedAt: number | null;
  doneAt: number | null;
  updatedAt: number;
};

const selectCallback = statement<[number], { url: string }>(
  "select url from webhook_message_callbacks where message_id = ?",
);
const selectMessage = statement<[number], MessageRow>(
  `select id, to_phone as "to", from_address as "from", body, status, encoding, segments, credits,
     group_send_id as groupSendId, error, created_at as createdAt, submitted_at as submittedAt, done_at as doneAt,
     updated_at as updatedAt
   from sms_messages where id = ?`,
);
const insertCallback = statement("insert into webhook_message_callbacks (message_id, url) values (?, ?)");

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The message as GET /api/v1/messages/{id} shows it (the webhooks contract's `data`). */
function messageData(row: MessageRow) {
  const carrier = row.error ? /^Carrier error (.+)$/.exec(row.error) : null;
  return {
    id: row.id,
    direction: "outbound" as const,
    to: row.to,
    from: row.from ?? getEnv().SMPP_SOURCE_ADDR,
    body: row.body,
    status: row.status,
    encoding: row.encoding,
    segments: row.segments,
    credits: row.credits,
    groupSendId: row.groupSendId,
    errorCode: carrier ? carrier[1] : null,
    errorMessage: row.error,
    createdAt: iso(row.createdAt),
    submittedAt: iso(row.submittedAt),
    doneAt: iso(row.doneAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** Keeps a message's statusCallback URL (and makes the account's callback secret); inside the send's transaction. */
export function saveStatusCallback(tx: Executor, userId: number, messageId: number, url: string): void {
  ensureCallbackSecret(tx, userId);
  insertCallback().run(messageId, url);
}

/** A message moved to `status`: records its event when anyone wants it. Inside the move's transaction. */
export function noteMessageStatus(userId: number, messageId: number, status: MessageStatus, now: number): void {
  const type = EVENT_OF_STATUS[status];
  if (!type) return;
  const callbackUrl = selectCallback().get(messageId)?.url ?? null;
  if (!callbackUrl && !wantsEvent(userId, type)) return;
  const row = selectMessage().get(messageId);
  if (row) recordEvent(userId, type, messageData(row), { callbackUrl, now });
}
