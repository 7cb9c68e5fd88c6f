// The shapes the REST API's resources share (ids, examples, paging, the error, the Idempotency-Key
// header); each resource's own are in app/api/resources/. The server validates with them and the
// OpenAPI document is generated from them, so the reference cannot drift from what the server does.
import { z } from "zod";
import { API_ERROR_CODES } from "#app/api/errors.ts";

export const EXAMPLE_PHONE = "+12025550123";
export const EXAMPLE_BODY = "Hello from the SMS Gateway API";

/** A positive integer id in a path; anything else is simply not found. */
export const positiveId = () => z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** A resource's id in an answer, with its example and, where it helps, what it is for. */
export const idField = (example: number, description?: string) =>
  z
    .int()
    .positive()
    .meta(description === undefined ? { examples: [example] } : { description, examples: [example] });
export const messageIdField = () => idField(42, "The message's id, for GET /api/v1/messages/{id}.");
export const groupSendIdField = () => idField(3, "The group send's id, for GET /api/v1/group-sends/{id}.");
export const idParams = (description: string) => z.strictObject({ id: positiveId().meta({ description }) });
export const GroupIdParams = idParams("One of your groups' id (GET /api/v1/groups).");
export const EXAMPLE_SEND_AT = "2030-01-15T09:30:00Z";

export const senderField = z.string().trim().min(1, "from must not be empty").max(20, "from is too long").optional();
export const statusCallbackField = z.string().max(2000, "statusCallback is too long").optional();

export const cursorField = (what: string) =>
  z
    .string()
    .max(500)
    .optional()
    .meta({ description: `\`nextCursor\` of the previous page; leave out for the first ${what}.` });
export const limitField = (what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: `${what} per page.` });

export const IdempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "Idempotency-Key must be 1 to 255 visible ASCII characters")
  .meta({
    description:
      "Any unique string of yours (e.g. a UUID or your order id). A retry with the same key and body answers with the first response and sends nothing new; the same key with another body is a 409.",
    examples: ["order-1234-reminder"],
  });

export const isoTime = (description: string) => z.string().meta({ format: "date-time", description });
export const nullableIsoTime = (description: string) =>
  z.string().nullable().meta({ format: "date-time", description });

/** One page of a cursor-paged list: its items and the cursor of the next page. */
export function cursorPage<Item extends z.ZodType>(item: Item, order: string) {
  return z.object({
    data: z.array(item).meta({ description: order }),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
  });
}

export const ErrorSchema = z.object({
  error: z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    field: z.string().optional().meta({ description: "The request field at fault, when there is one." }),
    errors: z
      .array(z.object({ field: z.string().optional(), message: z.string() }))
      .optional()
      .meta({
        description: "validation_failed: every invalid field, not only the first (nested fields as messages.2.to).",
        examples: [[{ field: "messages.2.to", message: "to is required" }]],
      }),
  }),
});

export const OpenApiDocumentSchema = z.record(z.string(), z.unknown()).meta({ description: "This document." });
