// Messages on the REST API: send one now or later, a batch, a quote; list, follow and cancel them.
// The answers' shapes are in message-schemas.ts, the sending and presenting in the files it imports.
import { API_BASE, type ApiRoute, defineRoute, MAX_BATCH_BODY_BYTES } from "#app/api/define-route.ts";
import { fromConfig, refuseUnverifiedSender, replayed } from "#app/api/route-helpers.server.ts";
import { EXAMPLE_BODY, EXAMPLE_PHONE } from "#app/api/schemas.ts";
import { ApiError } from "#app/api/errors.ts";
import { UnsafeWebhookUrlError } from "#app/modules/webhooks/errors.ts";
import { checkWebhookUrl } from "#app/modules/webhooks/targets.server.ts";
import { quoteApi, sendApiBatch } from "#app/api/resources/message-batches.server.ts";
import {
  BatchResultSchema,
  ListMessagesQuery,
  MessageIdParams,
  MessageListSchema,
  QuoteSchema,
  ScheduledMessageSchema,
  SentOrScheduledSchema,
} from "#app/api/resources/message-schemas.ts";
import { listApiMessages, sendApiMessage } from "#app/api/resources/message-sends.server.ts";
import {
  cancelApiMessage,
  getApiMessageById,
  latestScheduledMessageId,
  scheduleApiMessage,
} from "#app/api/resources/scheduled-messages.server.ts";
import { latestMessageId } from "#app/modules/sms/own-messages.server.ts";
import { messageRequests } from "#app/api/resources/message-requests.ts";

const requests = fromConfig(messageRequests);

/** A send's statusCallback: a URL a webhook endpoint could have (422 naming the field otherwise); not with sendAt. */
async function checkStatusCallback(url: string, sendAt: unknown): Promise<void> {
  if (sendAt !== undefined)
    throw new ApiError("validation_failed", "statusCallback is for messages sent now, not with sendAt", {
      field: "statusCallback",
    });
  try {
    await checkWebhookUrl(url);
  } catch (error) {
    if (error instanceof UnsafeWebhookUrlError)
      throw new ApiError("validation_failed", error.message, { field: "statusCallback" });
    throw error;
  }
}

/** Each batch item's statusCallback, checked as POST /messages checks it (each URL once); a 422 names every refused item. */
async function checkBatchCallbacks(items: { statusCallback?: string }[]): Promise<void> {
  const urls = [...new Set(items.flatMap((item) => (item.statusCallback === undefined ? [] : [item.statusCallback])))];
  const refusals = new Map<string, string>();
  await Promise.all(
    urls.map((url) =>
      checkWebhookUrl(url).catch((error: unknown) => {
        if (!(error instanceof UnsafeWebhookUrlError)) throw error;
        refusals.set(url, error.message);
      }),
    ),
  );
  const errors = items.flatMap((item, index) => {
    const refused = item.statusCallback === undefined ? undefined : refusals.get(item.statusCallback);
    return refused === undefined ? [] : [{ field: `messages.${index}.statusCallback`, message: refused }];
  });
  if (errors.length > 0) throw new ApiError("validation_failed", errors[0].message, { field: errors[0].field, errors });
}

export const MESSAGE_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "POST",
    path: `${API_BASE}/messages`,
    operationId: "sendMessage",
    tag: "Messages",
    summary: "Send an SMS, now or later",
    description:
      "Queues one SMS and charges its credits at once (1 per segment); the same rules as the Send SMS screen apply, and the answer is a Message. With `sendAt` it is scheduled instead, as on the Schedule SMS screen: the answer is a ScheduledMessage with an id such as `sch_7`, which GET /messages/{id} follows (status `scheduled`, then the status of the message it became) and DELETE /messages/{id} cancels until it goes out. Its credits must be there when you schedule it and are charged when it goes out (if they are gone by then, it becomes a failed message). Scheduled messages are not in GET /messages until they go out.",
    auth: true,
    scope: "messages:send",
    get body() {
      return requests().SendMessageRequest;
    },
    idempotent: true,
    success: {
      status: 201,
      description:
        "Queued, or scheduled when `sendAt` was given. A replay of an Idempotency-Key answers the same, with Idempotent-Replayed: true.",
      schema: SentOrScheduledSchema,
    },
    errors: [
      "insufficient_credits",
      "quota_exceeded",
      "idempotency_conflict",
      "recipient_opted_out",
      "unknown_sender",
      "email_unverified",
    ],
    example: { body: { to: EXAMPLE_PHONE, body: EXAMPLE_BODY } },
    handle: async ({
      userId,
      apiKeyId,
      body: { sendAt, ignoreQuietHours, ...message },
      idempotencyKey,
      sendBatcher,
    }) => {
      await refuseUnverifiedSender(userId);
      if (message.statusCallback !== undefined) await checkStatusCallback(message.statusCallback, sendAt);
      const result =
        sendAt === undefined
          ? await sendApiMessage(
              sendBatcher,
              userId,
              { ...message, respectQuietHours: !ignoreQuietHours, apiKeyId: apiKeyId ?? undefined },
              idempotencyKey,
            )
          : await scheduleApiMessage(userId, { ...message, sendAt }, idempotencyKey);
      return { status: 201, body: result.message, headers: replayed(result.replayed) };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${API_BASE}/messages/batch`,
    operationId: "sendMessageBatch",
    tag: "Messages",
    summary: "Send to up to 1,000 recipients at once",
    description:
      "One text for all (`body`) or one per recipient (`messages[].body`), in one request and one transaction. Each recipient gets a result: `queued` with its Message, or `refused` with the reason (invalid_phone, recipient_opted_out, unknown_sender, insufficient_credits) while the others still go. Only what was queued is charged. The balance pays the recipients in their order: once one cannot be paid, it and every later recipient are refused with insufficient_credits, so a top-up and a new batch of the refused ones finishes the job. One Idempotency-Key covers the whole batch: a retry answers the same results and charges nothing more.",
    auth: true,
    scope: "messages:send",
    get body() {
      return requests().SendBatchRequest;
    },
    maxBodyBytes: MAX_BATCH_BODY_BYTES,
    idempotent: true,
    success: {
      status: 200,
      description:
        "Every recipient's result (status 200 even when some, or all, were refused). A replay of an Idempotency-Key answers the same, with Idempotent-Replayed: true.",
      schema: BatchResultSchema,
    },
    errors: ["idempotency_conflict", "email_unverified"],
    example: {
      body: {
        body: EXAMPLE_BODY,
        messages: [{ to: EXAMPLE_PHONE }, { to: "+12025550124", body: "Your own text for this one" }],
      },
    },
    handle: async ({ userId, apiKeyId, body, idempotencyKey }) => {
      await refuseUnverifiedSender(userId);
      await checkBatchCallbacks(body.messages);
      const { result, replayed: again } = await sendApiBatch(userId, apiKeyId, body, idempotencyKey);
      return { body: result, headers: replayed(again) };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${API_BASE}/messages/quote`,
    operationId: "quoteMessages",
    tag: "Messages",
    summary: "What a message or a batch costs",
    description:
      "The encoding, segments and credits of one body (to `to`), or of a batch as POST /messages/batch takes it, and the characters that force UCS-2 (70 characters per SMS instead of 160): replace them to pay less. A segment costs what the price list (/pricing/destinations) says for the recipient's number; without a recipient, what destinations without their own price cost. The credits are exactly what the send charges; nothing is sent or reserved.",
    auth: true,
    scope: "messages:read",
    get body() {
      return requests().QuoteRequest;
    },
    maxBodyBytes: MAX_BATCH_BODY_BYTES,
    success: { status: 200, description: "The quote.", schema: QuoteSchema },
    example: { body: { body: "Café at 9? 😀" } },
    handle: async ({ body }) => ({ body: await quoteApi(body) }),
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/messages`,
    operationId: "listMessages",
    tag: "Messages",
    summary: "List your messages",
    description:
      "Newest first, a page at a time: pass `nextCursor` back as `cursor` until it is null. The messages you sent by default; with `direction=inbound`, the messages phones sent you (replies to your messages, keywords such as STOP) as InboundMessage objects.",
    auth: true,
    scope: "messages:read",
    query: ListMessagesQuery,
    success: { status: 200, description: "One page of messages.", schema: MessageListSchema },
    example: { query: { limit: 10 } },
    handle: async ({ userId, query }) => ({ body: await listApiMessages(userId, query) }),
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/messages/{id}`,
    operationId: "getMessage",
    tag: "Messages",
    summary: "Get one message and its delivery status",
    description: "A message id answers a Message; a scheduled message's id (`sch_...`) answers a ScheduledMessage.",
    auth: true,
    scope: "messages:read",
    params: MessageIdParams,
    success: { status: 200, description: "The message.", schema: SentOrScheduledSchema },
    errors: ["not_found"],
    example: { params: { id: 42 }, readerParams: async (userId) => ({ id: await latestMessageId(userId) }) },
    handle: async ({ userId, params }) => ({ body: await getApiMessageById(userId, params.id) }),
  }),
  defineRoute({
    method: "DELETE",
    path: `${API_BASE}/messages/{id}`,
    operationId: "cancelMessage",
    tag: "Messages",
    summary: "Cancel a scheduled message",
    description:
      "Stops a scheduled message (`sch_...`) that has not gone out; nothing is charged. Cancelling it again answers the same. A message that went out cannot be called back: 409.",
    auth: true,
    scope: "messages:send",
    params: MessageIdParams,
    success: {
      status: 200,
      description: "Cancelled: the scheduled message with status `cancelled`.",
      schema: ScheduledMessageSchema,
    },
    errors: ["not_found", "already_sent"],
    example: {
      params: { id: "sch_7" },
      readerParams: async (userId) => ({ id: await latestScheduledMessageId(userId) }),
    },
    handle: async ({ userId, params }) => ({ body: await cancelApiMessage(userId, params.id) }),
  }),
];
