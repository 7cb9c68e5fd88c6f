// The OpenAPI 3.1 document, generated from the route table and its zod schemas (never by hand).
import { z } from "zod";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { API_ERRORS, type ApiErrorCode } from "#app/api/errors.ts";
import type { ApiRoute } from "#app/api/define-route.ts";
import { BalanceSchema } from "#app/api/resources/account.server.ts";
import { ContactListSchema, ContactSchema } from "#app/api/resources/contacts.server.ts";
import { GroupSendSchema } from "#app/api/resources/group-sends.server.ts";
import { GroupListSchema, GroupSchema } from "#app/api/resources/groups.server.ts";
import {
  InboundMessageSchema,
  MessageListSchema,
  MessageSchema,
  ScheduledMessageSchema,
} from "#app/api/resources/message-schemas.ts";
import { ErrorSchema, IdempotencyKeyHeader, OpenApiDocumentSchema } from "#app/api/schemas.ts";
import {
  WEBHOOK_EVENTS,
  webhookEventSchema,
  webhookEventSchemaName,
  WebhookMessageSchema,
  webhooksSection,
} from "#app/api/webhook-schemas.ts";

type Json = Record<string, unknown>;

const NAMED_RESPONSES: Record<string, z.ZodType> = {
  Message: MessageSchema,
  ScheduledMessage: ScheduledMessageSchema,
  InboundMessage: InboundMessageSchema,
  MessageList: MessageListSchema,
  Contact: ContactSchema,
  ContactList: ContactListSchema,
  Group: GroupSchema,
  GroupList: GroupListSchema,
  GroupSend: GroupSendSchema,
  Balance: BalanceSchema,
  Error: ErrorSchema,
  OpenApiDocument: OpenApiDocumentSchema,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);

/** JSON Schema of what clients send (io "input"), without the keywords OpenAPI sets itself. */
function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  return rest;
}

/** The errors a route can answer with: the common ones for what it reads, plus its own. */
export function routeErrorCodes(route: ApiRoute): ApiErrorCode[] {
  const codes = new Set<ApiErrorCode>(route.errors ?? []);
  if (route.auth) codes.add("unauthorized").add("account_disabled").add("rate_limited");
  if (route.scope) codes.add("insufficient_scope");
  if (route.query || route.idempotent) codes.add("invalid_request");
  if (route.body)
    for (const code of ["invalid_request", "payload_too_large", "unsupported_media_type", "validation_failed"] as const)
      codes.add(code);
  return [...codes].sort((a, b) => API_ERRORS[a].status - API_ERRORS[b].status);
}

function parameters(route: ApiRoute): Json[] {
  const list: Json[] = [];
  for (const [location, schema, examples] of [
    ["path", route.params, route.example?.params],
    ["query", route.query, route.example?.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema) as { properties: Record<string, Json>; required?: string[] };
    for (const [name, { description, ...property }] of Object.entries(object.properties)) {
      list.push({
        name,
        in: location,
        required: location === "path" || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: property,
        ...(examples?.[name] !== undefined ? { example: examples[name] } : {}),
      });
    }
  }
  if (route.idempotent) {
    const { description, examples, ...schema } = jsonSchema(IdempotencyKeyHeader) as Json & { examples?: unknown[] };
    list.push({ name: "Idempotency-Key", in: "header", required: false, description, schema, example: examples?.[0] });
  }
  return list;
}

const integerHeader = (description: string) => ({ description, schema: { type: "integer" } });
const RATE_HEADERS = {
  "RateLimit-Limit": integerHeader("Requests allowed per minute with this key."),
  "RateLimit-Remaining": integerHeader("Requests left in the current minute."),
  "RateLimit-Reset": integerHeader("Seconds until the minute starts over."),
};

/** A named object by reference; a union of named objects as anyOf their references. */
function answerSchema(schema: z.ZodType, names: Map<z.ZodType, string>): Json {
  const name = names.get(schema);
  if (name) return ref(name);
  if (schema instanceof z.ZodUnion && schema.options.every((option) => names.has(option as z.ZodType))) {
    return { anyOf: schema.options.map((option) => ref(names.get(option as z.ZodType)!)) };
  }
  return jsonSchema(schema);
}

function errorResponses(route: ApiRoute): Json {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of routeErrorCodes(route)) {
    const { status } = API_ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const example = (code: ApiErrorCode) => ({ error: { code, message: API_ERRORS[code].description } });
  const out: Json = {};
  for (const [status, codes] of byStatus) {
    const [first] = codes;
    out[status] = {
      // Several codes on one status: each is described and has its example.
      description:
        codes.length === 1
          ? API_ERRORS[first].description
          : codes.map((code) => `\`${code}\`: ${API_ERRORS[code].description}`).join(" "),
      ...(codes.includes("rate_limited")
        ? { headers: { "Retry-After": integerHeader("Seconds to wait before trying again.") } }
        : {}),
      content: {
        "application/json": {
          schema: ref("Error"),
          ...(codes.length === 1
            ? { example: example(first) }
            : {
                examples: Object.fromEntries(
                  codes.map((code) => [code, { summary: API_ERRORS[code].description, value: example(code) }]),
                ),
              }),
        },
      },
    };
  }
  return out;
}

function responses(route: ApiRoute, names: Map<z.ZodType, string>): Json {
  return {
    [route.success.status]: {
      description: route.success.description,
      ...(route.auth
        ? {
            headers: {
              ...RATE_HEADERS,
              ...(route.idempotent
                ? {
                    "Idempotent-Replayed": {
                      description: "true when this is the answer to an earlier request with the same Idempotency-Key.",
                      schema: { type: "string", enum: ["true"] },
                    },
                  }
                : {}),
            },
          }
        : {}),
      content: { "application/json": { schema: answerSchema(route.success.schema, names) } },
    },
    ...errorResponses(route),
  };
}

function operation(route: ApiRoute, names: Map<z.ZodType, string>): Json {
  const params = parameters(route);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.auth ? {} : { security: [] }),
    ...(route.scope ? { "x-required-scope": route.scope } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref(names.get(route.body)!),
                ...(route.example?.body ? { example: route.example.body } : {}),
              },
            },
          },
        }
      : {}),
    responses: responses(route, names),
  };
}

function build(routes: ApiRoute[], origin: string): Json {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  const name = (schema: z.ZodType, id: string) => {
    registry.add(schema, { id });
    names.set(schema, id);
  };
  for (const [id, schema] of Object.entries(NAMED_RESPONSES)) name(schema, id);
  for (const route of routes) if (route.body) name(route.body, `${pascal(route.operationId)}Request`);
  name(WebhookMessageSchema, "WebhookMessage");
  for (const event of WEBHOOK_EVENTS) name(webhookEventSchema(event), webhookEventSchemaName(event.type));

  const generated = z.toJSONSchema(registry, {
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const schemas: Json = {};
  for (const [id, { $schema: _dialect, $id: _id, ...schema }] of Object.entries(
    generated.schemas as Record<string, Json>,
  ))
    schemas[id] = schema;

  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, names);

  return {
    openapi: "3.1.0",
    info: {
      title: "SMS Gateway API",
      version: "1.0.0",
      description: [
        "Send SMS and follow their delivery from your own software. Authenticate every request with your API key from the API Token page: `Authorization: Bearer <key>`. Keys never go in a URL. Each key has scopes (`messages:send`, `messages:read`, `contacts:manage`); an operation's `x-required-scope` names the one it needs, and a key without it gets 403 `insufficient_scope`.",
        'Requests and answers are JSON. An error answers `{ "error": { "code", "message", "field" } }` with the HTTP status of its code.',
        `Each key may make ${formatNumber(getEnv().API_RATE_LIMIT_PER_MINUTE)} requests a minute, and all the keys of an account together ${formatNumber(getEnv().API_ACCOUNT_RATE_LIMIT_PER_MINUTE)}; over either the answer is 429 with Retry-After.`,
      ].join("\n\n"),
    },
    servers: [{ url: origin }],
    security: [{ apiKey: [] }],
    tags: [...new Set([...routes.map((r) => r.tag), "Webhooks"])].map((tag) => ({ name: tag })),
    paths,
    webhooks: webhooksSection(ref),
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "Your API key (smsgw_live_...), from the API Token page.",
        },
      },
      schemas,
    },
  };
}

const documents = new Map<string, Json>();

/** The document for clients that reached us at `origin`; built once per origin. */
export function openApiDocument(routes: ApiRoute[], origin: string): Json {
  let document = documents.get(origin);
  if (!document) {
    document = build(routes, origin);
    // Origins come from request headers: keep only a few.
    if (documents.size > 16) documents.clear();
    documents.set(origin, document);
  }
  return document;
}
