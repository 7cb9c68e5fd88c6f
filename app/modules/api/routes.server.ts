// The REST API's route table: the server dispatches on it and the OpenAPI document is built from
// it, so every route answered is documented. A new endpoint is one defineRoute entry.
import type { z } from "zod";
import { getBalance } from "../credits/ledger.server.ts";
import { smsFormConfig } from "../sms/send-form.server.ts";
import { ApiError, type ApiErrorCode } from "./errors.ts";
import { getApiMessage, listApiMessages, sendApiMessage } from "./messages.server.ts";
import { openApiDocument } from "./openapi.server.ts";
import {
  BalanceSchema,
  createRequestSchemas,
  EXAMPLE_BODY,
  EXAMPLE_PHONE,
  IdParams,
  ListMessagesQuery,
  MessageListSchema,
  MessageSchema,
  OpenApiDocumentSchema,
} from "./schemas.ts";

export const API_BASE = "/api/v1";

export type RouteContext<Params, Query, Body> = {
  /** The key owner's id; 0 on the public routes. */
  userId: number;
  params: Params;
  query: Query;
  body: Body;
  idempotencyKey: string | undefined;
  /** Scheme, host and port the client used (forwarded headers only with TRUST_PROXY). */
  origin: string;
};

export type RouteResult = { status?: number; body: unknown; headers?: Record<string, string> };

type Schema = z.ZodType<Record<string, unknown>>;

export type ApiRoute = {
  method: "GET" | "POST" | "DELETE";
  /** OpenAPI path template, e.g. /api/v1/messages/{id}. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** false: answered without an API key (the OpenAPI document). */
  auth: boolean;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** Reads the Idempotency-Key header. */
  idempotent?: boolean;
  success: { status: number; description: string; schema: z.ZodType };
  /** The errors this route adds to the common ones (401, 429, and 400/413/415/422 with a body). */
  errors?: ApiErrorCode[];
  /** Values for the documentation's curl examples. */
  example?: { params?: Record<string, string | number>; query?: Record<string, string | number>; body?: Record<string, unknown> };
  handle: (ctx: RouteContext<never, never, never>) => RouteResult | Promise<RouteResult>;
};

/** Types the handler's params, query and body from the route's own schemas. */
function defineRoute<P extends Schema, Q extends Schema, B extends Schema>(
  route: Omit<ApiRoute, "params" | "query" | "body" | "handle"> & {
    params?: P;
    query?: Q;
    body?: B;
    handle: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => RouteResult | Promise<RouteResult>;
  },
): ApiRoute {
  return route as unknown as ApiRoute;
}

const { SendMessageRequest } = createRequestSchemas(smsFormConfig());

const notFound = (what: string) => new ApiError("not_found", `No ${what} with this id in your account`);

export const API_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "POST",
    path: `${API_BASE}/messages`,
    operationId: "sendMessage",
    tag: "Messages",
    summary: "Send an SMS",
    description:
      "Queues one SMS and charges its credits at once (1 per segment). The same rules as the Send SMS screen apply. Follow its delivery with GET /messages/{id}.",
    auth: true,
    body: SendMessageRequest,
    idempotent: true,
    success: { status: 201, description: "Queued. A replay of an Idempotency-Key answers the same, with Idempotent-Replayed: true.", schema: MessageSchema },
    errors: ["insufficient_credits", "idempotency_conflict"],
    example: { body: { to: EXAMPLE_PHONE, body: EXAMPLE_BODY } },
    handle: async ({ userId, body, idempotencyKey }) => {
      const { message, replayed } = await sendApiMessage(userId, body, idempotencyKey);
      return { status: 201, body: message, headers: replayed ? { "Idempotent-Replayed": "true" } : undefined };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/messages`,
    operationId: "listMessages",
    tag: "Messages",
    summary: "List your messages",
    description: "Newest first, a page at a time: pass `nextCursor` back as `cursor` until it is null.",
    auth: true,
    query: ListMessagesQuery,
    success: { status: 200, description: "One page of messages.", schema: MessageListSchema },
    example: { query: { limit: 10 } },
    handle: ({ userId, query }) => ({ body: listApiMessages(userId, query) }),
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/messages/{id}`,
    operationId: "getMessage",
    tag: "Messages",
    summary: "Get one message and its delivery status",
    auth: true,
    params: IdParams,
    success: { status: 200, description: "The message.", schema: MessageSchema },
    errors: ["not_found"],
    example: { params: { id: 42 } },
    handle: ({ userId, params }) => {
      const message = getApiMessage(userId, params.id);
      if (!message) throw notFound("message");
      return { body: message };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/balance`,
    operationId: "getBalance",
    tag: "Account",
    summary: "Your credit balance",
    auth: true,
    success: { status: 200, description: "Credits left.", schema: BalanceSchema },
    handle: ({ userId }) => ({ body: { credits: getBalance(userId) } }),
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/openapi.json`,
    operationId: "getOpenApiDocument",
    tag: "Reference",
    summary: "This API's OpenAPI 3.1 document",
    auth: false,
    success: { status: 200, description: "The OpenAPI document.", schema: OpenApiDocumentSchema },
    // Public and readable from any origin, so API tools can load it straight from the server.
    handle: ({ origin }) => ({ body: openApiDocument(API_ROUTES, origin), headers: { "Access-Control-Allow-Origin": "*" } }),
  }),
];
