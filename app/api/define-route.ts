// One REST route's declaration: its method, path, schemas, documentation and handler. The route
// table (routes.server.ts) is a list of these; the dispatcher and the OpenAPI document read it.
import type { z } from "zod";
import type { ApiErrorCode } from "#app/api/errors.ts";
import type { SendBatcher } from "#app/api/send-batcher.server.ts";
import type { ApiScope } from "#app/modules/api-keys/scopes.ts";

export const API_BASE = "/api/v1";

/** A batch of 1,000 recipients, ~2,000 bytes each: the body limit of the batch routes. */
export const MAX_BATCH_BODY_BYTES = 2 * 1024 * 1024;

export type RouteContext<Params, Query, Body> = {
  /** The key owner's id; 0 on the public routes. */
  userId: number;
  /** The key's id (null on the public routes): a message remembers the key that sent it. */
  apiKeyId: number | null;
  /** The key's scopes (empty on the public routes), for a route whose data needs more than its own scope. */
  scopes: ReadonlySet<string>;
  params: Params;
  query: Query;
  body: Body;
  idempotencyKey: string | undefined;
  /** APP_URL: the start of every absolute link in an answer (never the request's Host). */
  origin: string;
  /** Queues a message with the user's other API sends of the same millisecond. */
  sendBatcher: SendBatcher;
};

export type RouteResult = { status?: number; body: unknown; headers?: Record<string, string> };

type Schema = z.ZodType<Record<string, unknown>>;

export type ApiRoute = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. /api/v1/messages/{id}. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** false: answered without an API key (the OpenAPI document). */
  auth: boolean;
  /** The scope a key needs here (null only on public routes); without it: 403 insufficient_scope. */
  scope: ApiScope | null;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** The largest body this route reads (default MAX_BODY_BYTES, 16 KiB); at most MAX_REQUEST_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Reads the Idempotency-Key header. */
  idempotent?: boolean;
  success: { status: number; description: string; schema: z.ZodType };
  /** The errors this route adds to the common ones (401, 429, and 400/413/415/422 with a body). */
  errors?: ApiErrorCode[];
  /** Values for the documentation's curl examples. */
  example?: {
    params?: Record<string, string | number>;
    query?: Record<string, string | number>;
    body?: Record<string, unknown>;
    /** Path parameters from the reader's own data (e.g. their newest message), so the example works as printed. */
    readerParams?: (userId: number) => Promise<Record<string, string | number | null>>;
  };
  handle: (ctx: RouteContext<never, never, never>) => RouteResult | Promise<RouteResult>;
};

/** Types the handler's params, query and body from the route's own schemas. */
export function defineRoute<P extends Schema, Q extends Schema, B extends Schema>(
  route: Omit<ApiRoute, "params" | "query" | "body" | "handle"> & {
    params?: P;
    query?: Q;
    body?: B;
    handle: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => RouteResult | Promise<RouteResult>;
  },
): ApiRoute {
  return route as unknown as ApiRoute;
}
