// Messages as the REST API shows them, read through the sms module's own-messages (another
// account's message is simply not found). Sending goes through the same queueMessages as the screens.
import { z } from "zod";
import type { MessageStatus } from "#app/modules/sms/message-status.ts";
import {
  findOccurrenceMessage,
  findOwnMessage,
  messageHasApiRef,
  type OwnMessageRow,
  ownMessagesBefore,
  scheduleHasApiRef,
} from "#app/modules/sms/own-messages.server.ts";
import { decodeCursor, encodeCursor } from "#app/api/cursor.server.ts";
import { ApiError } from "#app/api/errors.ts";
import { type ApiInboundMessage, type ApiMessage, INBOUND_ID_PREFIX } from "#app/api/schemas.ts";
import { type InboundRow, ownInboundBefore } from "#app/modules/inbound/inbox.server.ts";
import type { SendBatcher } from "#app/api/send-batcher.server.ts";

function present(row: OwnMessageRow): ApiMessage {
  return { direction: "outbound", ...row, createdAt: new Date(row.createdAt).toISOString() };
}

function presentInbound(row: InboundRow): ApiInboundMessage {
  const { id, from, to, body, encoding, parts, receivedAt } = row;
  return {
    direction: "inbound",
    id: `${INBOUND_ID_PREFIX}${id}`,
    from,
    to,
    body,
    encoding,
    parts,
    receivedAt: new Date(receivedAt).toISOString(),
  };
}

export function getApiMessage(userId: number, id: number): ApiMessage | undefined {
  const row = findOwnMessage(userId, id);
  return row && present(row);
}

/** The message a schedule's occurrence became, once it ran. */
export function getOccurrenceMessage(userId: number, scheduleId: number, at: number): ApiMessage | undefined {
  const row = findOccurrenceMessage(userId, scheduleId, at);
  return row && present(row);
}

// Idempotency-Keys of POST /messages are one namespace, whether a message went out at once or was
// scheduled: the same key on the other kind is another request.
export function keyUsedByMessage(userId: number, key: string): boolean {
  return messageHasApiRef(userId, key);
}

export const idempotencyConflict = () =>
  new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request body", {
    field: "Idempotency-Key",
  });

const CURSOR = "m1";
const CursorPosition = z.int().positive().max(Number.MAX_SAFE_INTEGER);

const INBOUND_CURSOR = "i1";

function listApiInbound(userId: number, options: { cursor?: string; limit: number }) {
  const before =
    options.cursor === undefined
      ? Number.MAX_SAFE_INTEGER
      : decodeCursor(INBOUND_CURSOR, options.cursor, CursorPosition);
  const rows = ownInboundBefore(userId, { before, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  return {
    data: page.map(presentInbound),
    nextCursor: rows.length > options.limit ? encodeCursor(INBOUND_CURSOR, page[page.length - 1].id) : null,
  };
}

export function listApiMessages(
  userId: number,
  options: { direction: "outbound" | "inbound"; status?: MessageStatus; cursor?: string; limit: number },
) {
  if (options.direction === "inbound") {
    if (options.status !== undefined)
      throw new ApiError("invalid_request", "status filters outbound messages only: inbound ones have none", {
        field: "status",
      });
    return listApiInbound(userId, options);
  }
  const before =
    options.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(CURSOR, options.cursor, CursorPosition);
  // One row more than asked says whether there is a next page.
  const rows = ownMessagesBefore(userId, { status: options.status, before, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  return {
    data: page.map(present),
    nextCursor: rows.length > options.limit ? encodeCursor(CURSOR, page[page.length - 1].id) : null,
  };
}

/**
 * Queues one message. With an Idempotency-Key (stored as the message's API reference, unique per
 * user) a repeat returns the first answer instead, unless its body differs: a 409.
 */
export async function sendApiMessage(
  sendBatcher: SendBatcher,
  userId: number,
  input: { to: string; body: string; from?: string; statusCallback?: string },
  idempotencyKey: string | undefined,
): Promise<{ message: ApiMessage; replayed: boolean }> {
  if (idempotencyKey !== undefined && scheduleHasApiRef(userId, idempotencyKey)) throw idempotencyConflict();
  const queued = await sendBatcher.add({ userId, message: { ...input, source: "api", apiRef: idempotencyKey } });
  // A repeat compares with what was stored; a new message is what was just written.
  const stored = queued.duplicate ? getApiMessage(userId, queued.id) : undefined;
  if (queued.duplicate && (stored?.to !== input.to || stored?.body !== input.body)) throw idempotencyConflict();
  const { id, to, encoding, segments, credits, createdAt } = queued;
  // The answer as it was first given: the current status is for GET /messages/{id}.
  const message: ApiMessage = {
    direction: "outbound",
    id,
    to,
    body: input.body,
    encoding,
    segments,
    credits,
    status: "queued",
    statusDetail: null,
    createdAt: new Date(createdAt).toISOString(),
  };
  return { message, replayed: queued.duplicate };
}
