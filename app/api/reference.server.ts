// Turns the OpenAPI document into what the documentation screen shows: endpoints, their fields,
// errors and copy-paste curl examples. Everything comes from the document, so the page documents
// exactly what the server answers.

import { codeExamples, curlExample, type ExampleRequest, type LanguageId } from "#app/api/code-examples.ts";

type Json = Record<string, unknown>;
type JsonSchema = {
  $ref?: string;
  anyOf?: JsonSchema[];
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  format?: string;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
};
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: JsonSchema;
  example?: unknown;
};
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  security?: unknown[];
  "x-required-scope"?: string;
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema; example?: unknown } } };
  responses: Record<
    string,
    { description: string; content?: { "application/json": { schema: JsonSchema } & ErrorExamples } }
  >;
};
type ErrorExample = { error?: { code?: string } };
type ErrorExamples = { example?: ErrorExample; examples?: Record<string, { summary?: string; value: ErrorExample }> };

export type ReferenceField = { name: string; where: string; type: string; required: boolean; description: string };
export type ReferenceEndpoint = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  auth: boolean;
  /** The API key scope this endpoint needs (null: none). */
  scope: string | null;
  fields: ReferenceField[];
  /** `objects`: the answer is one of these objects, each described once for several endpoints (see `objects`). */
  success: { status: string; description: string; objects: string[]; fields: ReferenceField[] };
  errors: { status: string; code: string; description: string }[];
  curl: string;
  /** The request in every language (only when asked for, see apiReference's `exampleKey`). */
  examples?: { language: LanguageId; code: string }[];
};

/** The shell variable the examples read the key from, so the key never has to be pasted into them. */
export const KEY_VARIABLE = "SMSGW_API_KEY";

function resolve(document: Json, schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split("/").pop()!;
  return (document.components as { schemas: Record<string, JsonSchema> }).schemas[name];
}

function typeName(document: Json, schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split("/").pop()!;
  if (schema.anyOf) return schema.anyOf.map((option) => typeName(document, option)).join(" | ");
  if (schema.type === "array" && schema.items) return `${typeName(document, schema.items)}[]`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? "any"];
  return types.map((t) => (t === "string" && schema.format ? `string (${schema.format})` : t)).join(" | ");
}

function describe(schema: JsonSchema): string {
  const bounded = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER;
  const notes = [
    schema.enum ? `One of: ${schema.enum.map((v) => `\`${String(v)}\``).join(", ")}.` : null,
    schema.const !== undefined ? `Always \`${String(schema.const)}\`.` : null,
    bounded && schema.minimum !== undefined ? `${schema.minimum} to ${schema.maximum}.` : null,
    schema.default !== undefined ? `Default ${JSON.stringify(schema.default)}.` : null,
  ];
  return [schema.description, ...notes].filter(Boolean).join(" ");
}

function objectFields(document: Json, schema: JsonSchema, where: string): ReferenceField[] {
  const object = resolve(document, schema);
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    where,
    type: typeName(document, property),
    required: (object.required ?? []).includes(name),
    description: describe(property),
  }));
}

/**
 * A body for an operation that has no example of its own: each required field's first example,
 * default or allowed value, else a stand-in of its type, so every example still sends a body.
 */
function bodyFromSchema(document: Json, schema: JsonSchema, depth = 0): unknown {
  const resolved = resolve(document, schema);
  const known = resolved.examples?.[0] ?? resolved.default ?? resolved.const ?? resolved.enum?.[0];
  if (known !== undefined || depth > 5) return known ?? null;
  if (resolved.anyOf) return bodyFromSchema(document, resolved.anyOf[0], depth + 1);
  switch (Array.isArray(resolved.type) ? resolved.type[0] : resolved.type) {
    case "object":
      return Object.fromEntries(
        (resolved.required ?? []).map((name) => [
          name,
          bodyFromSchema(document, resolved.properties![name], depth + 1),
        ]),
      );
    case "array":
      return resolved.items ? [bodyFromSchema(document, resolved.items, depth + 1)] : [];
    case "integer":
    case "number":
      return resolved.minimum ?? 1;
    case "boolean":
      return true;
    case "string":
      return resolved.format === "date-time" ? "2030-01-15T09:30:00Z" : "string";
    default:
      return null;
  }
}

/** The operation as one concrete request: path and query parameters filled in, the body example. */
function exampleRequest(
  document: Json,
  origin: string,
  method: string,
  path: string,
  operation: Operation,
  values: Record<string, string> = {},
): ExampleRequest {
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    const value = values[parameter.name] ?? (parameter.example === undefined ? undefined : String(parameter.example));
    if (parameter.in === "path") url = url.replace(`{${parameter.name}}`, encodeURIComponent(value ?? "1"));
    if (parameter.in === "query" && value !== undefined) query.set(parameter.name, value);
  }
  const search = query.size ? `?${query}` : "";
  const content = operation.requestBody?.content["application/json"];
  return {
    method,
    url: `${origin}${url}${search}`,
    auth: operation.security?.length !== 0,
    body: content && (content.example ?? bodyFromSchema(document, content.schema)),
  };
}

export type ReferenceObject = { name: string; fields: ReferenceField[] };

const refName = (schema: JsonSchema | undefined) =>
  schema?.$ref?.split("/").pop() ?? schema?.items?.$ref?.split("/").pop();

/** The named objects an answer is: one, or one of several (anyOf). */
const answerNames = (schema: JsonSchema | undefined): string[] =>
  (schema?.anyOf ?? (schema ? [schema] : [])).flatMap((option) => (option.$ref ? [option.$ref.split("/").pop()!] : []));

/** Objects that several answers hold (as themselves or inside a list): described once, not per endpoint. */
function sharedObjects(document: Json, operations: Operation[]): Set<string> {
  const uses = new Map<string, number>();
  const count = (name: string | undefined) => name && uses.set(name, (uses.get(name) ?? 0) + 1);
  for (const operation of operations) {
    const success = Object.entries(operation.responses).find(([code]) => code.startsWith("2"))?.[1];
    const schema = success?.content?.["application/json"].schema;
    if (!schema) continue;
    for (const name of answerNames(schema)) count(name);
    if (schema.anyOf) continue;
    for (const property of Object.values(resolve(document, schema).properties ?? {})) count(refName(property));
  }
  return new Set([...uses].filter(([, n]) => n > 1).map(([name]) => name));
}

function errorList(responses: Operation["responses"]): ReferenceEndpoint["errors"] {
  return Object.entries(responses)
    .filter(([code]) => !code.startsWith("2"))
    .flatMap(([status, response]) => {
      const content = response.content?.["application/json"];
      if (content?.examples) {
        return Object.entries(content.examples).map(([code, example]) => ({
          status,
          code,
          description: example.summary ?? "",
        }));
      }
      return [{ status, code: content?.example?.error?.code ?? "", description: response.description }];
    });
}

/**
 * The endpoints of an OpenAPI document, in its order, and the objects nested in their answers.
 * `values` fills path and query parameters in the curl examples, per operation id (e.g. one of the
 * reader's own message ids). With `exampleKey`, each endpoint also has `examples` in every language, the key
 * written into them (the `curl` field keeps reading it from a shell variable).
 */
export function apiReference(document: Json, values: Record<string, Record<string, string>> = {}, exampleKey?: string) {
  const origin = (document.servers as { url: string }[])[0].url;
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const shared = sharedObjects(
    document,
    Object.values(paths).flatMap((methods) => Object.values(methods)),
  );
  const endpoints: ReferenceEndpoint[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [lower, operation] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith("2"))!;
      const successSchema = success.content?.["application/json"].schema;
      const bodySchema = operation.requestBody?.content["application/json"].schema;
      const names = answerNames(successSchema);
      const request = exampleRequest(document, origin, method, path, operation, values[operation.operationId]);
      const sharedAnswers = names.length > 0 && names.every((name) => shared.has(name)) ? names : [];
      endpoints.push({
        id: operation.operationId,
        method,
        path,
        summary: operation.summary,
        description: operation.description ?? null,
        auth: operation.security?.length !== 0,
        scope: operation["x-required-scope"] ?? null,
        fields: [
          ...(operation.parameters ?? []).map((p) => ({
            name: p.name,
            where: p.in,
            type: typeName(document, p.schema),
            required: Boolean(p.required),
            description: [p.description, describe(p.schema)].filter(Boolean).join(" "),
          })),
          ...(bodySchema ? objectFields(document, bodySchema, "body") : []),
        ],
        success: {
          status,
          description: success.description,
          objects: sharedAnswers,
          fields: sharedAnswers.length || !successSchema ? [] : objectFields(document, successSchema, "response"),
        },
        errors: errorList(operation.responses),
        curl: curlExample(request, `$${KEY_VARIABLE}`),
        ...(exampleKey === undefined ? {} : { examples: codeExamples(request, exampleKey) }),
      });
    }
  }
  const objects = [...shared].map((name) => ({
    name,
    fields: objectFields(document, { $ref: `#/components/schemas/${name}` }, "response"),
  }));
  return { endpoints, objects };
}

export type ReferenceWebhookEvent = {
  type: string;
  summary: string;
  description: string;
  /** The fields of the event's `data`. */
  fields: ReferenceField[];
  /** The named object `data` is, when it is one (several events share it). */
  dataObject: string | null;
  /** A whole delivery body, pretty-printed. */
  example: string;
};

type WebhookOperation = {
  summary: string;
  description: string;
  requestBody: { content: { "application/json": { schema: JsonSchema; example: unknown } } };
};

/** The events of the document's `webhooks` section, in its order, with the fields of their data. */
export function webhookEvents(document: Json): ReferenceWebhookEvent[] {
  const webhooks = (document.webhooks ?? {}) as Record<string, { post: WebhookOperation }>;
  return Object.entries(webhooks).map(([type, { post }]) => {
    const { schema, example } = post.requestBody.content["application/json"];
    const data = resolve(document, schema).properties?.data;
    return {
      type,
      summary: post.summary,
      description: post.description,
      fields: data ? objectFields(document, data, "response") : [],
      dataObject: refName(data) ?? null,
      example: JSON.stringify(example, null, 2),
    };
  });
}

/** The headers every webhook delivery carries (the same on every event), with what they mean. */
export function webhookHeaders(document: Json): { name: string; description: string }[] {
  const [first] = Object.values((document.webhooks ?? {}) as Record<string, { post: { parameters?: Parameter[] } }>);
  return (first?.post.parameters ?? []).map(({ name, description }) => ({ name, description: description ?? "" }));
}
