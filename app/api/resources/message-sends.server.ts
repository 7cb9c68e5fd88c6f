// Messages as the REST API shows them, read through the sms module's own-messages (another
// account's message is simply not found). Sending goes through the same queueMessages as the screens.
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { toMessageResource } from "#app/modules/sms/message-resource.ts";
import { normalizePhone } from "#app/modules/messaging/phone.ts";
import {
  findOccurrenceMessage,
  findOwnMessage,
  messageHasApiRef,
  type OwnMessageRow,
  ownMessagesBefore,
  scheduleHasApiRef,
} from "#app/modules/sms/own-messages.server.ts";
import { idPage, readIdPosition } from "#app/api/cursor.server.ts";
import { ApiError } from "#app/api/errors.ts";
import {
  type ApiInboundMessage,
  type ApiMessage,
  INBOUND_ID_PREFIX,
  type ListMessagesOptions,
} from "#app/api/resources/message-schemas.ts";
import { type InboundRow, ownInboundBefore } from "#app/modules/inbound/inbox.server.ts";
import type { SendBatcher } from "#app/api/send-batcher.server.ts";
import type { QueuedMessage } from "#app/modules/sms/send.server.ts";

const present = (row: OwnMessageRow): ApiMessage => toMessageResource(row);

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

export async function getApiMessage(userId: number, id: number): Promise<ApiMessage | undefined> {
  const row = await findOwnMessage(userId, id);
  return row && present(row);
}

/** The message a schedule's occurrence became, once it ran. */
export async function getOccurrenceMessage(
  userId: number,
  scheduleId: number,
  at: number,
): Promise<ApiMessage | undefined> {
  const row = await findOccurrenceMessage(userId, scheduleId, at);
  return row && present(row);
}

// Idempotency-Keys of POST /messages are one namespace, whether a message went out at once or was
// scheduled: the same key on the other kind is another request.
export async function keyUsedByMessage(userId: number, key: string): Promise<boolean> {
  return await messageHasApiRef(userId, key);
}

export const idempotencyConflict = () =>
  new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request body", {
    field: "Idempotency-Key",
  });

const CURSOR = "m1";

const INBOUND_CURSOR = "i1";

/** `from=default`: the gateway's shared sender. */
const SHARED_SENDER_FILTER = "default";

function phoneFilter(field: "to" | "from", value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const phone = normalizePhone(value, smsFormConfig().defaultCountry);
  if (!phone.ok) throw new ApiError("invalid_request", phone.error, { field });
  return phone.e164;
}

const timeFilter = (value: string | undefined) => (value === undefined ? undefined : Date.parse(value));

async function listApiInbound(userId: number, options: ListMessagesOptions) {
  for (const field of ["status", "groupSendId"] as const) {
    if (options[field] !== undefined)
      throw new ApiError("invalid_request", `${field} filters outbound messages only`, { field });
  }
  const before = readIdPosition(INBOUND_CURSOR, options.cursor);
  const rows = await ownInboundBefore(userId, {
    from: phoneFilter("from", options.from),
    to: options.to,
    receivedAfter: timeFilter(options.createdAfter),
    receivedBefore: timeFilter(options.createdBefore),
    before,
    limit: options.limit + 1,
  });
  return idPage(INBOUND_CURSOR, rows, options.limit, presentInbound);
}

/** One page of the user's messages, newest first, with every filter given. */
export async function listApiMessages(userId: number, options: ListMessagesOptions) {
  if (options.direction === "inbound") return await listApiInbound(userId, options);
  const before = readIdPosition(CURSOR, options.cursor);
  // One row more than asked says whether there is a next page.
  const rows = await ownMessagesBefore(userId, {
    status: options.status,
    to: phoneFilter("to", options.to),
    from: options.from === SHARED_SENDER_FILTER ? null : options.from,
    groupSendId: options.groupSendId,
    createdAfter: timeFilter(options.createdAfter),
    createdBefore: timeFilter(options.createdBefore),
    before,
    limit: options.limit + 1,
  });
  return idPage(CURSOR, rows, options.limit, present);
}

/**
 * Queues one message. With an Idempotency-Key (stored as the message's API reference, unique per
 * user) a repeat returns the first answer instead, unless its body differs: a 409.
 */
export async function sendApiMessage(
  sendBatcher: SendBatcher,
  userId: number,
  input: {
    to: string;
    body: string;
    from?: string;
    respectQuietHours?: boolean;
    statusCallback?: string;
    apiKeyId?: number;
  },
  idempotencyKey: string | undefined,
): Promise<{ message: ApiMessage; replayed: boolean }> {
  if (idempotencyKey !== undefined && (await scheduleHasApiRef(userId, idempotencyKey))) throw idempotencyConflict();
  const queued = await sendBatcher.add({ userId, message: { ...input, source: "api", apiRef: idempotencyKey } });
  // A repeat compares with what was stored; a new message is what was just written.
  const stored = queued.duplicate ? await getApiMessage(userId, queued.id) : undefined;
  if (queued.duplicate && (stored?.to !== input.to || stored?.body !== input.body)) throw idempotencyConflict();
  return { message: asAccepted(queued, input.body, stored), replayed: queued.duplicate };
}

/** A queued message as its send answered it (the current status is for GET /messages/{id}). */
export function asAccepted(queued: QueuedMessage, body: string, stored?: ApiMessage): ApiMessage {
  return toMessageResource({
    ...queued,
    from: stored ? stored.from : queued.from,
    body,
    status: "queued",
    statusDetail: null,
    groupSendId: null,
    submittedAt: null,
    doneAt: null,
    updatedAt: queued.createdAt,
  });
}
