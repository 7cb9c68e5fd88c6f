// The REST API core: a plain request in, a plain JSON response out, no framework. The Node adapter
// (server/api.ts) and the tests both call it.
import type { z } from "zod";
import { getEnv } from "#app/utils/env.server.ts";
import { log, logContext } from "#app/utils/log.server.ts";
import {
  DuplicateGroupNameError,
  DuplicatePhoneError,
  EmptyGroupError,
  InactiveContactError,
  NotFoundError,
} from "#app/modules/contacts/errors.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { QuotaExceededError } from "#app/modules/quotas/quotas.server.ts";
import { KeywordOptOutError, OptedOutError, OptOutNotFoundError } from "#app/modules/opt-outs/errors.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { ScheduleNotFoundError } from "#app/modules/scheduling/schedules.server.ts";
import { authenticate } from "#app/api/auth.server.ts";
import { createApiGate, type RateLimit, rateLimitHeaders } from "#app/api/rate-gate.server.ts";
import { ApiError, type FieldError } from "#app/api/errors.ts";
import type { ApiRoute } from "#app/api/define-route.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";
import { IdempotencyKeyHeader } from "#app/api/schemas.ts";
import { createSendBatcher, type SendBatcher } from "#app/api/send-batcher.server.ts";

/** Enough for the longest message in any encoding, JSON-escaped; more is refused with 413. */
export const MAX_BODY_BYTES = 16 * 1024;

export type ApiRequest = {
  method: string;
  /** Path with its query string, as in the request line: /api/v1/messages?limit=10 */
  path: string;
  /** Lower-case names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  body?: Uint8Array | string;
  /** The adapter stopped reading a body larger than MAX_BODY_BYTES. */
  bodyTooLarge?: boolean;
};

export type ApiResponse = { status: number; headers: Record<string, string>; body: string };

export type ApiOptions = { routes?: ApiRoute[]; ratePerMinute?: number; accountRatePerMinute?: number };

const literals = (segments: string[]) => segments.filter((segment) => !segment.startsWith("{")).length;

type Compiled = { route: ApiRoute; segments: string[] };
/** The routes' templates, and the routes without path parameters by method and path. */
type Table = { templates: Compiled[]; literal: Map<string, ApiRoute> };

const literalKey = (method: string, path: string) => `${method} ${path}`;

function compile(routes: ApiRoute[]): Table {
  const templates = routes.map((route) => ({ route, segments: route.path.split("/") }));
  // Such a path is one string (POST /messages on the hot path): a map look-up, not a match with every template.
  const literal = new Map(
    templates
      .filter(({ segments }) => literals(segments) === segments.length)
      .map(({ route }) => [literalKey(route.method, route.path), route]),
  );
  return { templates, literal };
}

function matchPath(segments: string[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.startsWith("{")) {
      if (parts[i] === "") return null;
      params[segment.slice(1, -1)] = parts[i];
    } else if (segment !== parts[i]) return null;
  }
  return params;
}

function findRoute(
  table: Table,
  method: string,
  pathname: string,
): { route: ApiRoute; params: Record<string, string> } {
  const wanted = method === "HEAD" ? "GET" : method;
  // A template without parameters is the most specific there is for its path.
  const literal = table.literal.get(literalKey(wanted, pathname));
  if (literal) return { route: literal, params: {} };
  const parts = pathname.split("/");
  // The most specific template owns the path: /messages/batch is not /messages/{id}.
  let matches: { route: ApiRoute; params: Record<string, string>; literals: number }[] = [];
  for (const { route, segments } of table.templates) {
    const params = matchPath(segments, parts);
    if (params) matches.push({ route, params, literals: literals(segments) });
  }
  const most = Math.max(...matches.map((m) => m.literals));
  matches = matches.filter((m) => m.literals === most);
  const found = matches.find((m) => m.route.method === wanted);
  if (found) return found;
  const allowed: string[] = matches.map((m) => m.route.method);
  if (allowed.length === 0) throw new ApiError("not_found", `No API endpoint at ${pathname}`);
  if (allowed.includes("GET")) allowed.push("HEAD");
  throw new ApiError("method_not_allowed", `${method} is not allowed here; use ${allowed.join(", ")}`, {
    headers: { Allow: allowed.join(", ") },
  });
}

let defaultTable: Table | undefined;

/** The largest body the route at `method` `url` reads, for the adapter to stop reading past it. */
export function bodyLimitOf(method: string, url: string): number {
  defaultTable ??= compile(API_ROUTES);
  const pathname = url.split("?")[0];
  const parts = pathname.split("/");
  const route =
    defaultTable.literal.get(literalKey(method, pathname)) ??
    defaultTable.templates.find((c) => c.route.method === method && matchPath(c.segments, parts))?.route;
  return route?.maxBodyBytes ?? MAX_BODY_BYTES;
}

function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Every problem zod found, each named by its field, in the request's order. */
function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({ field: [...issue.path, key].join("."), message: `Unknown field: ${key}` }));
    return [{ field: issue.path.length ? issue.path.join(".") : undefined, message: issue.message }];
  });
}

const firstIssue = (error: z.ZodError): FieldError => fieldErrors(error)[0];

function parseQuery(schema: z.ZodType, search: string): unknown {
  const raw: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    // `?status=&limit=` as a form would send it: an empty value is no value.
    if (value === "") continue;
    if (name in raw) throw new ApiError("invalid_request", `${name} is given more than once`, { field: name });
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const { field, message } = firstIssue(result.error);
  throw new ApiError("invalid_request", message, { field });
}

/** application/json, with no charset or UTF-8's, in any case and spacing. */
function isJsonType(contentType: string | undefined): boolean {
  const type = contentType
    ?.toLowerCase()
    .split(";")
    .map((part) => part.trim());
  return (
    type !== undefined &&
    type[0] === "application/json" &&
    !type.slice(1).some((p) => p.startsWith("charset=") && p !== "charset=utf-8")
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function parseBody(schema: z.ZodType, request: ApiRequest, limit: number): unknown {
  const bytes = typeof request.body === "string" ? Buffer.byteLength(request.body) : (request.body?.byteLength ?? 0);
  if (request.bodyTooLarge || bytes > limit) {
    throw new ApiError("payload_too_large", `The body may be at most ${limit} bytes`);
  }
  const contentType = header(request, "content-type");
  // What nearly every client sends is taken as it is; anything else is read part by part.
  if (contentType !== "application/json" && !isJsonType(contentType)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
  }
  let json: unknown;
  let text: string;
  try {
    text = typeof request.body === "string" ? request.body : utf8.decode(request.body ?? new Uint8Array());
    json = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_request", "The body is not valid JSON (UTF-8)");
  }
  // JSON carries U+0000 only as this escape: a body without it is not walked.
  const withNul = text.includes("\\u0000") ? fieldWithNul(json) : null;
  if (withNul !== null) {
    const message = "Text may not contain the NUL character (U+0000)";
    throw new ApiError("validation_failed", message, { field: withNul, errors: [{ field: withNul, message }] });
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  throw new ApiError("validation_failed", errors[0].message, { field: errors[0].field, errors });
}

/**
 * The path of the first string holding U+0000 ("" for the body itself), or null. No field takes one
 * and PostgreSQL cannot store it, so it is refused on both engines rather than stored on one.
 */
function fieldWithNul(value: unknown, path: (string | number)[] = []): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") : null;
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = fieldWithNul(item, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found !== null) return found;
  }
  return null;
}

function parseIdempotencyKey(request: ApiRequest): string | undefined {
  const value = header(request, "idempotency-key");
  if (value === undefined) return undefined;
  const result = IdempotencyKeyHeader.safeParse(value);
  if (!result.success)
    throw new ApiError("invalid_request", result.error.issues[0].message, { field: "Idempotency-Key" });
  return result.data;
}

/** Domain errors the API turns into answers; anything else is a 500 and is logged. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof InsufficientCreditsError) {
    return new ApiError(
      "insufficient_credits",
      `Not enough credits: this costs ${error.needed} and your balance is ${error.balance}. Nothing was sent.`,
    );
  }
  if (error instanceof NotFoundError || error instanceof ScheduleNotFoundError)
    return new ApiError("not_found", `${error.message} in your account`);
  if (error instanceof DuplicatePhoneError) return new ApiError("validation_failed", error.message, { field: "phone" });
  if (error instanceof DuplicateGroupNameError)
    return new ApiError("validation_failed", error.message, { field: "name" });
  if (error instanceof EmptyGroupError || error instanceof InactiveContactError)
    return new ApiError("nothing_to_send", error.message);
  if (error instanceof QuotaExceededError) return new ApiError("quota_exceeded", error.message);
  if (error instanceof OptedOutError)
    return new ApiError("recipient_opted_out", `${error.message}. Nothing was sent or charged.`, { field: "to" });
  if (error instanceof UnknownSenderError) return new ApiError("unknown_sender", error.message, { field: "from" });
  if (error instanceof KeywordOptOutError) return new ApiError("keyword_opt_out", error.message);
  if (error instanceof OptOutNotFoundError) return new ApiError("not_found", `${error.message} in your account`);
  log("error", "api", "unexpected error", error);
  return new ApiError("internal_error", "Something went wrong on our side; please try again");
}

function json(status: number, body: unknown, headers: Record<string, string>): ApiResponse {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}

const NO_SCOPES: ReadonlySet<string> = new Set();

export type ApiHandler = ((request: ApiRequest) => Promise<ApiResponse>) & {
  /** Runs the rate checks and sends still gathering; for process shutdown, once the server has stopped. */
  shutdown: () => Promise<void>;
};

/** A handler over a route table; options let tests use a small rate limit. */
export function createApiHandler(options: ApiOptions = {}): ApiHandler {
  const table = compile(options.routes ?? API_ROUTES);
  const limits = () => ({
    perKey: options.ratePerMinute ?? getEnv().API_RATE_LIMIT_PER_MINUTE,
    perAccount: options.accountRatePerMinute ?? getEnv().API_ACCOUNT_RATE_LIMIT_PER_MINUTE,
  });
  const apiGate = createApiGate();
  // Made at the first request: it reads the configuration (the engine), which a module load must not.
  let sendBatcher: SendBatcher | undefined;
  const shutdown = async () => {
    await apiGate.shutdown();
    await sendBatcher?.shutdown();
  };

  return Object.assign(
    async function handleApiRequest(request: ApiRequest): Promise<ApiResponse> {
      let rate: RateLimit | null = null;
      try {
        const queryAt = request.path.indexOf("?");
        const pathname = queryAt === -1 ? request.path : request.path.slice(0, queryAt);
        const search = queryAt === -1 ? "" : request.path.slice(queryAt + 1);
        const { route, params } = findRoute(table, request.method.toUpperCase(), pathname);
        const logged = logContext();
        if (logged) logged.route = route.path;
        let userId = 0;
        let apiKeyId: number | null = null;
        let scopes: ReadonlySet<string> = NO_SCOPES;
        if (route.auth) {
          const authenticated = await authenticate(header(request, "authorization"), limits(), apiGate);
          userId = authenticated.userId;
          apiKeyId = authenticated.keyId;
          scopes = authenticated.scopes;
          rate = authenticated.rate;
          if (route.scope && !authenticated.scopes.has(route.scope))
            throw new ApiError("insufficient_scope", `This API key lacks the scope ${route.scope}`);
        }
        let parsedParams: unknown = {};
        if (route.params) {
          const result = route.params.safeParse(params);
          if (!result.success)
            throw new ApiError("not_found", "No such resource: the id must be a positive whole number");
          parsedParams = result.data;
        }
        const ctx = {
          userId,
          apiKeyId,
          scopes,
          params: parsedParams,
          query: route.query ? parseQuery(route.query, search) : {},
          idempotencyKey: route.idempotent ? parseIdempotencyKey(request) : undefined,
          body: route.body ? parseBody(route.body, request, route.maxBodyBytes ?? MAX_BODY_BYTES) : undefined,
          origin: getEnv().appUrl,
          sendBatcher: (sendBatcher ??= createSendBatcher()),
        };
        const result = await route.handle(ctx as never);
        return json(result.status ?? 200, result.body, { ...rateLimitHeaders(rate), ...result.headers });
      } catch (error) {
        const apiError = toApiError(error);
        return json(apiError.status, apiError.toBody(), { ...rateLimitHeaders(rate), ...apiError.headers });
      }
    },
    { shutdown },
  );
}

export const handleApiRequest = createApiHandler();
