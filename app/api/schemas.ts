// The REST API's request and response shapes. The server validates with them and the OpenAPI
// document is generated from them, so the reference cannot drift from what the server does.
import { z } from "zod";
import { TIME_ZONE_HINT } from "#app/modules/quiet-hours/time-zone-field.ts";
import { canonicalTimeZone, isValidTimeZone } from "#app/utils/time-zone.ts";
import { REPEATS } from "#app/db/enums.ts";
import { emailField } from "#app/modules/auth/schemas.ts";
import { contactNameField } from "#app/modules/contacts/schemas.ts";
import { phoneField } from "#app/modules/sms/phone.ts";
import { messageBodyField, type SmsFormConfig } from "#app/modules/sms/schemas.ts";
import { MAX_BATCH_MESSAGES } from "#app/modules/sms/batch.ts";
import { API_ERROR_CODES } from "#app/api/errors.ts";

// Null clears it; left out, it stays as it is (a PATCH) or is null (a new contact).
const apiTimeZoneField = z
  .string()
  .trim()
  .refine(isValidTimeZone, TIME_ZONE_HINT)
  .transform(canonicalTimeZone)
  .nullable()
  .optional()
  .meta({
    description: "An IANA time zone (e.g. Europe/Berlin) for quiet hours; null: the number's country decides.",
    examples: ["Europe/Berlin"],
  });
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

const senderField = z.string().trim().min(1, "from must not be empty").max(20, "from is too long").optional();
const statusCallbackField = z.string().max(2000, "statusCallback is too long").optional();

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
    from: senderField.meta({
      description:
        "The sender it goes out from: one of your senders (the Senders screen lists them). Leave out for your default sender, or the gateway's if you have none.",
      examples: ["AcmeAlerts"],
    }),
    sendAt: z.iso
      .datetime({
        offset: true,
        error: "sendAt must be a date and time with a zone, e.g. 2030-01-15T09:30:00Z or 2030-01-15T10:30:00+01:00",
      })
      .optional()
      .meta({
        description:
          "Send later instead of now: any moment in the future, to the second (ISO 8601 with `Z` or an offset; fractions of a second are dropped). The answer is then a ScheduledMessage; its credits are checked now and charged when it goes out.",
        examples: [EXAMPLE_SEND_AT],
      }),
    ignoreQuietHours: z.boolean().optional().meta({
      description:
        "true: send now even inside your quiet hours (Settings). Left out or false: a message that would reach the recipient inside them is queued (and charged) now and sent when they end, in the recipient's local time. Not used with sendAt, which goes at the time given.",
    }),
    statusCallback: statusCallbackField.meta({
      description:
        "A URL that gets this message's message.sent, message.delivered and message.failed events, as webhook endpoints do, signed with your account's callback secret (the Webhooks screen). https, resolving to a public address. Not with sendAt.",
      examples: ["https://example.com/sms/status"],
    }),
  });
  const CreateContactRequest = z.strictObject({
    name: contactNameField.meta({ examples: ["Ada Lovelace"] }),
    phone: phoneField(config.defaultCountry).meta({
      description: `Best in E.164; a number without a country code is read as a ${config.defaultCountry} number. One contact per number.`,
      examples: [EXAMPLE_PHONE],
    }),
    email: emailField.meta({ examples: ["ada@example.com"] }),
    timeZone: apiTimeZoneField,
    groupIds: z
      .array(z.int().positive().max(Number.MAX_SAFE_INTEGER))
      .max(1_000)
      .default([])
      .meta({ description: "Ids of your groups the contact joins." }),
  });
  const GroupSendRequest = z.strictObject({
    body: messageBodyField(config.maxSegments).meta({
      description: `Message text sent to every active member, in up to ${config.maxSegments} parts; 1 credit per part and member.`,
      examples: ["Our store opens at 9 tomorrow"],
    }),
    from: senderField.meta({
      description: "One of your senders; leave out for your default.",
      examples: ["AcmeAlerts"],
    }),
  });
  const CreateOptOutRequest = z.strictObject({
    phone: phoneField(config.defaultCountry).meta({
      description: `The number your messages must not go to; without a country code it is read as a ${config.defaultCountry} number.`,
      examples: [EXAMPLE_PHONE],
    }),
  });
  const batchItem = z.strictObject({
    to: z
      .string({ error: "to is required" })
      .max(40, "to is too long")
      .meta({
        description: `The recipient, as in POST /messages. A number that is not valid is refused in its result (invalid_phone), the others still go.`,
        examples: [EXAMPLE_PHONE],
      }),
    body: messageBodyField(config.maxSegments)
      .optional()
      .meta({
        description: "This recipient's own text; leave out to send the batch's `body`.",
        examples: [EXAMPLE_BODY],
      }),
    from: senderField.meta({ description: "This recipient's sender; leave out for the batch's `from`." }),
    statusCallback: statusCallbackField.meta({
      description:
        "A URL that gets this recipient's message.sent, message.delivered and message.failed events, as in POST /messages. A URL that is refused makes the whole batch a 422 naming each such item; nothing is sent.",
      examples: ["https://example.com/sms/status"],
    }),
  });
  const batchShape = {
    body: messageBodyField(config.maxSegments)
      .optional()
      .meta({ description: "The text for every recipient without a `body` of its own.", examples: [EXAMPLE_BODY] }),
    from: senderField.meta({
      description: "The sender for every recipient without a `from` of its own; leave out for your default.",
    }),
  };
  // Runs also on input that is no object at all (alwaysCheck), e.g. a JSON null.
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
  const everyItemHasABody = (request: { body?: unknown; messages?: unknown }, ctx: z.core.$RefinementCtx) => {
    if (!isObject(request) || request.body !== undefined || !Array.isArray(request.messages)) return;
    request.messages.forEach((item: unknown, index) => {
      if (typeof item === "object" && item !== null && !("body" in item))
        ctx.addIssue({
          code: "custom",
          path: ["messages", index, "body"],
          message: "Message is required: give a body here or for the batch",
        });
    });
  };
  // Also when other fields are invalid, so one 422 lists every missing body too.
  const alwaysCheck = { when: () => true };
  const SendBatchRequest = z
    .strictObject({
      ...batchShape,
      messages: z
        .array(batchItem)
        .min(1, "messages must list at least one recipient")
        .max(MAX_BATCH_MESSAGES, `messages may list at most ${MAX_BATCH_MESSAGES} recipients`)
        .meta({ description: `1 to ${MAX_BATCH_MESSAGES} recipients, each with its own text or the batch's.` }),
    })
    .superRefine(everyItemHasABody, alwaysCheck);
  const QuoteRequest = z
    .strictObject({
      ...batchShape,
      messages: z
        .array(batchItem.partial({ to: true }))
        .min(1)
        .max(MAX_BATCH_MESSAGES)
        .optional()
        .meta({
          description:
            "A batch as POST /messages/batch takes it (`to` may be left out); leave out to quote `body` once.",
        }),
    })
    .superRefine((request, ctx) => {
      if (!isObject(request)) return;
      if (request.messages !== undefined) return everyItemHasABody(request, ctx);
      if (request.body === undefined) ctx.addIssue({ code: "custom", path: ["body"], message: "Message is required" });
    }, alwaysCheck);
  const UpdateContactRequest = CreateContactRequest.extend({
    groupIds: CreateContactRequest.shape.groupIds.unwrap().meta({
      description: "Ids of your groups: the contact's groups become exactly these.",
    }),
    active: z.boolean().meta({ description: "false: the contact opted out; group sends skip it." }),
  })
    .partial()
    .meta({ description: "Only the fields given change." });
  const CreateScheduleRequest = z
    .strictObject({
      to: phoneField(config.defaultCountry)
        .optional()
        .meta({ description: "The phone each occurrence goes to; or give `groupId`.", examples: [EXAMPLE_PHONE] }),
      groupId: z
        .int()
        .positive()
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .meta({ description: "One of your groups: each occurrence goes to its active members at that moment." }),
      body: messageBodyField(config.maxSegments).meta({ examples: ["Weekly reminder: team meeting at 10"] }),
      from: senderField.meta({ description: "One of your senders; leave out for your default when it runs." }),
      repeat: z.enum(REPEATS).meta({
        description:
          "none (once), daily, weekly (the first send's weekday) or monthly (its day of the month, or the month's last day): at the first send's wall-clock time in `timeZone`, summer time or not.",
      }),
      firstSendAt: z.iso
        .datetime({ offset: true, error: "firstSendAt must be a date and time with a zone, e.g. 2030-01-15T09:30:00Z" })
        .meta({ description: "The first send, in the future (to the second).", examples: [EXAMPLE_SEND_AT] }),
      timeZone: z
        .string()
        .max(64)
        .optional()
        .meta({
          description: "The IANA zone the rule lives in; leave out for your account's (Settings).",
          examples: ["Europe/London"],
        }),
      endDate: z.iso
        .date("endDate must be a date (YYYY-MM-DD)")
        .optional()
        .meta({
          description: "The last day it may send (inclusive, in `timeZone`); leave out to repeat until cancelled.",
          examples: ["2030-12-31"],
        }),
    })
    .superRefine((request, ctx) => {
      if ((request.to === undefined) === (request.groupId === undefined))
        ctx.addIssue({ code: "custom", path: ["to"], message: "Give either to or groupId" });
    });
  return {
    CreateScheduleRequest,
    UpdateContactRequest,
    SendMessageRequest,
    CreateContactRequest,
    GroupSendRequest,
    CreateOptOutRequest,
    SendBatchRequest,
    QuoteRequest,
  };
}

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
