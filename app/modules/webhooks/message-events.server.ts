// The message.* events, noted by the sms module inside the transaction of each status change. An
// account with no endpoint for the event and a message without a statusCallback costs a Map look-up
// and one primary-key read here.
import type { Executor } from "#app/db/client.server.ts";
import { statement } from "#app/db/statements.server.ts";
import { ensureCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import type { MessageStatus } from "#app/modules/sms/message-status.ts";
import { toMessageResource } from "#app/modules/sms/message-resource.ts";
import { findOwnMessage } from "#app/modules/sms/own-messages.server.ts";
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

const selectCallback = statement<[number], { url: string }>(
  "select url from webhook_message_callbacks where message_id = ?",
);
const insertCallback = statement("insert into webhook_message_callbacks (message_id, url) values (?, ?)");

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
  // The message as GET /api/v1/messages/{id} shows it (the webhooks contract's `data`).
  const row = findOwnMessage(userId, messageId);
  if (row) recordEvent(userId, type, toMessageResource(row), { callbackUrl, now });
}
