// Conform's parseWithZod for every form of the pages, refusing a field that holds U+0000 with a
// message beside it: PostgreSQL cannot store the character and SQLite would keep it invisibly.
import { parseWithZod as parseWithSchema } from "@conform-to/zod/v4";
import type { z } from "zod";

export const NUL_MESSAGE = "May not contain the NUL character (U+0000)";

// A stranger field named after an object's own keys would become a path that reaches the prototype of
// conform's error object: no form has one, the schema drops it, and its text is never stored.
const OBJECT_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The first field of the submission whose text holds U+0000, as conform names it, or null. */
function fieldHoldingNul(payload: FormData | URLSearchParams): string | null {
  for (const [name, value] of payload.entries()) {
    if (typeof value !== "string" || !value.includes("\u0000")) continue;
    if (issuePath(name).some((segment) => typeof segment === "string" && OBJECT_KEYS.has(segment))) continue;
    return name;
  }
  return null;
}

/** Conform's "items[0].name" as the path of a schema issue: ["items", 0, "name"]. */
function issuePath(name: string): PropertyKey[] {
  return name
    .split(/[.[\]]/)
    .filter((segment) => segment !== "")
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

export const parseWithZod = ((
  payload: FormData | URLSearchParams,
  options: { schema: z.ZodType | ((intent: never) => z.ZodType) },
) => {
  const field = fieldHoldingNul(payload);
  if (field === null) return parseWithSchema(payload, options as never);
  const refuse = (schema: z.ZodType) =>
    schema.superRefine((_value, context) => {
      context.addIssue({ code: "custom", path: issuePath(field), message: NUL_MESSAGE });
    });
  const { schema } = options;
  const refusing = typeof schema === "function" ? (intent: never) => refuse(schema(intent)) : refuse(schema);
  return parseWithSchema(payload, { ...options, schema: refusing } as never);
}) as typeof parseWithSchema;
