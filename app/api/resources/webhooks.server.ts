// Webhook endpoints on the REST API (scope webhooks:manage), on the webhooks module's own functions:
// the /sms/webhooks screen's rules, another account's endpoint is a 404. Their shapes: webhook-endpoint-schemas.ts.
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { refuseUnverified } from "#app/api/auth.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import { VERIFY_BEFORE } from "#app/modules/accounts/verify-first.ts";
import {
  CreateWebhookRequest,
  DeliveryIdParams,
  DeliveryListSchema,
  DeliverySchema,
  EndpointIdParams,
  EXAMPLE_URL,
  ListDeliveriesQuery,
  TestEventSchema,
  UpdateWebhookRequest,
  WebhookListSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "#app/api/resources/webhook-endpoint-schemas.ts";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  TooManyEndpointsError,
  updateEndpoint,
  type WebhookEndpoint,
} from "#app/modules/webhooks/endpoints.server.ts";
import {
  listDeliveries,
  redeliver,
  sendTestEvent,
  type WebhookDelivery,
} from "#app/modules/webhooks/deliveries.server.ts";
import {
  UnsafeWebhookUrlError,
  WebhookEndpointOffError,
  WebhookManualSendsLimitError,
  WebhookNotFoundError,
} from "#app/modules/webhooks/errors.ts";
import { isMessageEvent, type WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { latestEndpointIds, oldestEndpointId } from "#app/modules/webhooks/examples.server.ts";

const WEBHOOKS_PATH = `${API_BASE}/webhooks`;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

function present(endpoint: WebhookEndpoint) {
  return {
    ...endpoint,
    failingSince: iso(endpoint.failingSince),
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

function presentDelivery(delivery: WebhookDelivery) {
  return {
    ...delivery,
    lastAttemptAt: iso(delivery.lastAttemptAt),
    nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: iso(delivery.deliveredAt),
    createdAt: delivery.createdAt.toISOString(),
  };
}

/** The webhooks module's typed failures as API errors. */
async function answering<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WebhookNotFoundError) throw notFoundError(error.message.replace(/^No such /, ""));
    if (error instanceof UnsafeWebhookUrlError)
      throw new ApiError("validation_failed", error.message, { field: "url" });
    if (error instanceof TooManyEndpointsError) throw new ApiError("quota_exceeded", error.message);
    if (error instanceof WebhookEndpointOffError) throw new ApiError("endpoint_disabled", error.message);
    if (error instanceof WebhookManualSendsLimitError)
      throw new ApiError("rate_limited", error.message, {
        headers: { "Retry-After": String(error.retryAfterSeconds) },
      });
    throw error;
  }
}

/**
 * Message events carry message bodies: a key may point an endpoint that receives them (new, moved or
 * widened) only if it may read messages as well (docs/decisions/103-webhook-secrets-and-message-events.md).
 */
function mayReceiveMessages(scopes: ReadonlySet<string>, events: readonly WebhookEventType[]): void {
  if (events.some(isMessageEvent) && !scopes.has("messages:read"))
    throw new ApiError(
      "insufficient_scope",
      "Message events carry message bodies: an endpoint that receives them needs a key with messages:read as well as webhooks:manage",
    );
}

const TAG = "Webhooks";
const readerIds = (userId: number) => latestEndpointIds(userId);

export const WEBHOOK_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: WEBHOOKS_PATH,
    operationId: "listWebhooks",
    tag: TAG,
    summary: "List your webhook endpoints",
    auth: true,
    scope: "webhooks:manage",
    success: { status: 200, description: "Every endpoint, newest first.", schema: WebhookListSchema },
    handle: async ({ userId }) => ({ body: { data: (await listEndpoints(userId)).map(present) } }),
  }),
  defineRoute({
    method: "POST",
    path: WEBHOOKS_PATH,
    operationId: "createWebhook",
    tag: TAG,
    summary: "Add a webhook endpoint",
    description:
      "Events are POSTed to `url` as JSON, signed with the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). The answer carries the signing secret, this once. A URL that resolves to a private, loopback or link-local address is refused (422). Message events (message.*) carry message bodies: subscribing to them needs the scope messages:read as well (403 insufficient_scope).",
    auth: true,
    scope: "webhooks:manage",
    body: CreateWebhookRequest,
    success: { status: 201, description: "Created, with its secret.", schema: WebhookWithSecretSchema },
    errors: ["quota_exceeded", "email_unverified"],
    example: { body: { url: EXAMPLE_URL, events: ["message.delivered", "message.failed"] } },
    handle: async ({ userId, scopes, body }) => {
      await refuseUnverified(userId, VERIFY_BEFORE.webhooks);
      mayReceiveMessages(scopes, body.events);
      const { endpoint, secret } = await answering(() => createEndpoint(userId, body));
      return { status: 201, body: { ...present(endpoint), secret } };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${WEBHOOKS_PATH}/{id}`,
    operationId: "getWebhook",
    tag: TAG,
    summary: "Get one webhook endpoint",
    auth: true,
    scope: "webhooks:manage",
    params: EndpointIdParams,
    success: { status: 200, description: "The endpoint.", schema: WebhookSchema },
    errors: ["not_found"],
    example: { params: { id: 3 }, readerParams: async (userId) => ({ id: (await readerIds(userId)).endpointId }) },
    handle: async ({ userId, params }) => ({
      body: present(await answering(() => getEndpoint(userId, params.id))),
    }),
  }),
  defineRoute({
    method: "PATCH",
    path: `${WEBHOOKS_PATH}/{id}`,
    operationId: "updateWebhook",
    tag: TAG,
    summary: "Change a webhook endpoint",
    description:
      "Any of url, events and enabled. Turning an endpoint on again clears the reason the gateway turned it off. Changing an endpoint that receives message events (message.*) needs the scope messages:read as well (403 insufficient_scope).",
    auth: true,
    scope: "webhooks:manage",
    params: EndpointIdParams,
    body: UpdateWebhookRequest,
    success: { status: 200, description: "The endpoint as it is now.", schema: WebhookSchema },
    errors: ["not_found"],
    example: {
      params: { id: 3 },
      // Not `enabled: false`: the test and redeliver examples that run after it need the endpoint on.
      body: { events: ["message.delivered", "message.failed"] },
      readerParams: async (userId) => ({ id: (await readerIds(userId)).endpointId }),
    },
    handle: async ({ userId, scopes, params, body }) => {
      const events = body.events ?? (await answering(() => getEndpoint(userId, params.id))).events;
      mayReceiveMessages(scopes, events);
      return { body: present(await answering(() => updateEndpoint(userId, params.id, body))) };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${WEBHOOKS_PATH}/{id}/rotate-secret`,
    operationId: "rotateWebhookSecret",
    tag: TAG,
    summary: "Replace a webhook endpoint's signing secret",
    description: "Deliveries from now on (retries too) are signed with the new secret, shown this once.",
    auth: true,
    scope: "webhooks:manage",
    params: EndpointIdParams,
    success: { status: 200, description: "The endpoint with its new secret.", schema: WebhookWithSecretSchema },
    errors: ["not_found"],
    example: { params: { id: 3 }, readerParams: async (userId) => ({ id: (await readerIds(userId)).endpointId }) },
    handle: async ({ userId, params }) => {
      const { endpoint, secret } = await answering(() => rotateEndpointSecret(userId, params.id));
      return { body: { ...present(endpoint), secret } };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${WEBHOOKS_PATH}/{id}/test`,
    operationId: "sendWebhookTestEvent",
    tag: TAG,
    summary: "Send a test event to a webhook endpoint",
    description:
      "A `webhook.test` event, delivered (and retried) like any other; follow it in GET /webhooks/{id}/deliveries. Only to an endpoint that is on, and at most a few a minute per endpoint with redeliveries (429 with Retry-After past them).",
    auth: true,
    scope: "webhooks:manage",
    params: EndpointIdParams,
    success: { status: 202, description: "Queued: the event's id (its webhook-id).", schema: TestEventSchema },
    errors: ["not_found", "endpoint_disabled"],
    example: { params: { id: 3 }, readerParams: async (userId) => ({ id: (await readerIds(userId)).endpointId }) },
    handle: async ({ userId, params }) => ({
      status: 202,
      body: { eventId: await answering(() => sendTestEvent(userId, params.id)) },
    }),
  }),
  defineRoute({
    method: "GET",
    path: `${WEBHOOKS_PATH}/{id}/deliveries`,
    operationId: "listWebhookDeliveries",
    tag: TAG,
    summary: "A webhook endpoint's delivery log",
    description:
      "Newest first, a page at a time: each event sent to it, its attempts, the last status code, duration and answer.",
    auth: true,
    scope: "webhooks:manage",
    params: EndpointIdParams,
    query: ListDeliveriesQuery,
    success: { status: 200, description: "One page of deliveries.", schema: DeliveryListSchema },
    errors: ["not_found"],
    example: { params: { id: 3 }, readerParams: async (userId) => ({ id: (await readerIds(userId)).endpointId }) },
    handle: async ({ userId, params, query }) => {
      const before = query.cursor === undefined ? undefined : Number(query.cursor);
      const rows = await answering(() => listDeliveries(userId, params.id, { before, limit: query.limit + 1 }));
      const page = rows.slice(0, query.limit);
      const nextCursor = rows.length > query.limit ? String(page[page.length - 1].id) : null;
      return { body: { data: page.map(presentDelivery), nextCursor } };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${WEBHOOKS_PATH}/{id}/deliveries/{deliveryId}/redeliver`,
    operationId: "redeliverWebhook",
    tag: TAG,
    summary: "Send a delivery again",
    description:
      "The same event (the same webhook-id and body) is sent again now, and retried as a new delivery would be. Only to an endpoint that is on, and at most a few a minute per endpoint with test events (429 with Retry-After past them).",
    auth: true,
    scope: "webhooks:manage",
    params: DeliveryIdParams,
    success: { status: 202, description: "Queued: the delivery.", schema: DeliverySchema },
    errors: ["not_found", "endpoint_disabled"],
    example: {
      params: { id: 3, deliveryId: 12 },
      readerParams: async (userId) => ({
        id: (await readerIds(userId)).endpointId,
        deliveryId: (await readerIds(userId)).deliveryId,
      }),
    },
    handle: async ({ userId, params }) => ({
      status: 202,
      body: presentDelivery(await answering(() => redeliver(userId, params.id, params.deliveryId))),
    }),
  }),
  defineRoute({
    method: "DELETE",
    path: `${WEBHOOKS_PATH}/{id}`,
    operationId: "deleteWebhook",
    tag: TAG,
    summary: "Delete a webhook endpoint",
    description: "It and its delivery log are gone; deliveries still pending are not sent.",
    auth: true,
    scope: "webhooks:manage",
    params: EndpointIdParams,
    success: { status: 200, description: "Deleted: the endpoint as it was.", schema: WebhookSchema },
    errors: ["not_found"],
    example: { params: { id: 3 }, readerParams: async (userId) => ({ id: await oldestEndpointId(userId) }) },
    handle: async ({ userId, params }) => ({
      body: present(await answering(() => deleteEndpoint(userId, params.id))),
    }),
  }),
];
