// The REST API's request and response shapes. The server validates with them and the OpenAPI
// document is generated from them, so the reference cannot drift from what the server does.
import { z } from "zod";
import { MESSAGE_STATUSES } from "../../db/schema/sms.ts";
import { phoneField } from "../sms/phone.ts";
import { messageBodyField, type SmsFormConfig } from "../sms/schemas.ts";
import { API_ERROR_CODES } from "./errors.ts";

export const EXAMPLE_PHONE = "+12025550123";
export const EXAMPLE_BODY = "Hello from the SMS Gateway API";

/** A positive integer id in a path; anything else is simply not found. */
export const IdParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The shapes whose rules depend on the deployment's settings (default country, longest message). */
export function createRequestSchemas(config: SmsFormConfig) {
  const SendMessageRequest = z.strictObject({
    to: phoneField(config.defaultCountry).meta({
      description: `Recipient's phone number, best in E.164 (+ and country code); a number without one is read as a ${config.defaultCountry} number. Stored and returned in E.164.`,
      examples: [EXAMPLE_PHONE],
    }),
    body: messageBodyField(config.maxSegments).meta({
      description: `Message text. Longer than one SMS (160 GSM-7 characters, or 70 with characters such as emoji) is sent in up to ${config.maxSegments} parts. 1 credit per part.`,
      examples: [EXAMPLE_BODY],
    }),
  });
  return { SendMessageRequest };
}

export const ListMessagesQuery = z.strictObject({
  status: z.enum(MESSAGE_STATUSES).optional().meta({ description: "Only messages with this status." }),
  cursor: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "`nextCursor` of the previous page; leave out for the newest messages." }),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Messages per page." }),
});

export const IdempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "Idempotency-Key must be 1 to 255 visible ASCII characters")
  .meta({
    description:
      "Any unique string of yours (e.g. a UUID or your order id). A retry with the same key and body answers with the first response and sends nothing new; the same key with another body is a 409.",
    examples: ["order-1234-reminder"],
  });

export const MessageSchema = z.object({
  id: z.int().positive().meta({ description: "The message's id, for GET /api/v1/messages/{id}.", examples: [42] }),
  to: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  body: z.string().meta({ description: "The text as sent (line breaks as \\n).", examples: [EXAMPLE_BODY] }),
  encoding: z.enum(["GSM-7", "UCS-2"]),
  segments: z.int().positive().meta({ description: "SMS parts it is sent in." }),
  credits: z.int().nonnegative().meta({ description: "Credits charged: 1 per segment." }),
  status: z.enum(MESSAGE_STATUSES).meta({
    description:
      "queued (waiting), submitting (being handed over), submitted (accepted by the carrier), then delivered, undelivered, expired or rejected as the delivery receipt says; failed (not sent, credits refunded); unknown.",
  }),
  statusDetail: z.string().nullable().meta({ description: "Why it failed, or what the receipt said." }),
  createdAt: z.string().meta({ format: "date-time", examples: ["2026-03-01T09:30:00.000Z"] }),
});
export type ApiMessage = z.infer<typeof MessageSchema>;

export const MessageListSchema = z.object({
  data: z.array(MessageSchema).meta({ description: "Newest first." }),
  nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
});

export const BalanceSchema = z.object({
  credits: z.int().nonnegative().meta({ description: "Credits left; 1 credit sends one SMS segment." }),
});

export const ErrorSchema = z.object({
  error: z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    field: z.string().optional().meta({ description: "The request field at fault, when there is one." }),
  }),
});

export const OpenApiDocumentSchema = z.record(z.string(), z.unknown()).meta({ description: "This document." });
