// Turns the OpenAPI document into what the documentation screen shows: endpoints, their fields,
// errors and copy-paste curl examples. Everything comes from the document, so the page documents
// exactly what the server answers.

type Json = Record<string, unknown>;
type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
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
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema: JsonSchema; example?: unknown };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema; example?: unknown } } };
  responses: Record<string, { description: string; content?: { "application/json": { schema: JsonSchema; example?: { error?: { code?: string } } } } }>;
};

export type ReferenceField = { name: string; where: string; type: string; required: boolean; description: string };
export type ReferenceEndpoint = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  auth: boolean;
  fields: ReferenceField[];
  success: { status: string; description: string; fields: ReferenceField[] };
  errors: { status: string; code: string; description: string }[];
  curl: string;
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
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array" && schema.items) return `${typeName(document, schema.items)}[]`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? "any"];
  return types.map((t) => (t === "string" && schema.format ? `string (${schema.format})` : t)).join(" | ");
}

function describe(schema: JsonSchema): string {
  const limits = [
    schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum} to ${schema.maximum}.` : null,
    schema.default !== undefined ? `Default ${JSON.stringify(schema.default)}.` : null,
  ].filter(Boolean);
  return [schema.description, ...limits].filter(Boolean).join(" ");
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

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function curl(origin: string, method: string, path: string, operation: Operation, values: Record<string, string>): string {
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    const value = values[parameter.name] ?? (parameter.example === undefined ? undefined : String(parameter.example));
    if (parameter.in === "path") url = url.replace(`{${parameter.name}}`, encodeURIComponent(value ?? "1"));
    if (parameter.in === "query" && value !== undefined) query.set(parameter.name, value);
  }
  const search = query.size ? `?${query}` : "";
  const lines = [`curl -sS --fail-with-body${method === "GET" ? "" : ` -X ${method}`} "${origin}${url}${search}"`];
  if (operation.security?.length !== 0) lines.push(`-H "Authorization: Bearer $${KEY_VARIABLE}"`);
  const body = operation.requestBody?.content["application/json"].example;
  if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(" \\\n  ");
}

export type ReferenceObject = { name: string; fields: ReferenceField[] };

/** Objects that answers hold inside them (a list's items), described once. */
function nestedObjects(document: Json, endpoints: ReferenceEndpoint[]): ReferenceObject[] {
  const schemas = (document.components as { schemas: Record<string, JsonSchema> }).schemas;
  const names = new Set(endpoints.flatMap((e) => e.success.fields.map((f) => f.type.replace(/\[\]$/, ""))).filter((t) => t in schemas));
  return [...names].map((name) => ({ name, fields: objectFields(document, { $ref: `#/components/schemas/${name}` }, "response") }));
}

/**
 * The endpoints of an OpenAPI document, in its order, and the objects nested in their answers.
 * `values` fills path and query parameters in the curl examples (e.g. one of the reader's own
 * message ids).
 */
export function apiReference(document: Json, values: Record<string, string> = {}) {
  const origin = (document.servers as { url: string }[])[0].url;
  const endpoints: ReferenceEndpoint[] = [];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [lower, operation] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith("2"))!;
      const successSchema = success.content?.["application/json"].schema;
      const bodySchema = operation.requestBody?.content["application/json"].schema;
      endpoints.push({
        id: operation.operationId,
        method,
        path,
        summary: operation.summary,
        description: operation.description ?? null,
        auth: operation.security?.length !== 0,
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
          fields: successSchema && resolve(document, successSchema).properties ? objectFields(document, successSchema, "response") : [],
        },
        errors: Object.entries(operation.responses)
          .filter(([code]) => !code.startsWith("2"))
          .map(([code, response]) => ({
            status: code,
            code: response.content?.["application/json"].example?.error?.code ?? "",
            description: response.description,
          })),
        curl: curl(origin, method, path, operation, values),
      });
    }
  }
  return { endpoints, objects: nestedObjects(document, endpoints) };
}
