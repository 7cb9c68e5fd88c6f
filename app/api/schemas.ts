// The REST API's request and response shapes. The server validates with them and the OpenAPI
// document is generated from them, so the reference cannot drift from what the server does.
import { z } from "zod";
import { GROUP_SEND_STATUSES } from "#app/db/schema/contacts.ts";
import { OPT_OUT_SOURCES } from "#app/db/enums.ts";
import { emailField } from "#app/modules/auth/schemas.ts";
import { SKIP_REASONS } from "#app/modules/contacts/group-send.ts";
import { contactNameField, DESCRIPTION_MAX, groupNameField } from "#app/modules/contacts/schemas.ts";
import { MESSAGE_STATUSES } from "#app/modules/sms/message-status.ts";
import { phoneField } from "#app/modules/sms/phone.ts";
import { messageBodyField, type SmsFormConfig } from "#app/modules/sms/schemas.ts";
import { API_ERROR_CODES } from "#app/api/errors.ts";

export const EXAMPLE_PHONE = "+12025550123";
export const EXAMPLE_BODY = "Hello from the SMS Gateway API";

const positiveId = () => z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A positive integer id in a path; anything else is simply not found. */
const idParams = (description: string) => z.strictObject({ id: positiveId().meta({ description }) });
export const GroupIdParams = idParams("One of your groups' id (GET /api/v1/groups).");
export const GroupSendIdParams = idParams("The group send's id, as POST /api/v1/groups/{id}/messages answered it.");

/** Scheduled messages have ids of their own kind (they are schedules until they go out): sch_7. */
export const SCHEDULED_ID_PREFIX = "sch_";
const scheduledId = z.string().regex(/^sch_[1-9][0-9]{0,14}$/);

export const MessageIdParams = z.strictObject({
  id: z.union([scheduledId, positiveId()]).meta({
    description:
      "A message's id (a number), or a scheduled message's id (`sch_` and a number) as POST /messages answered it.",
  }),
});

export const EXAMPLE_SEND_AT = "2030-01-15T09:30:00Z";

const senderField = z.string().trim().min(1, "from must not be empty").max(20, "from is too long").optional();

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
    statusCallback: z
      .string()
      .max(2000, "statusCallback is too long")
      .optional()
      .meta({
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
  return { SendMessageRequest, CreateContactRequest, GroupSendRequest, CreateOptOutRequest };
}

export const CreateGroupRequest = z.strictObject({
  name: groupNameField.meta({ description: "Unique among your groups, in any letter case.", examples: ["Customers"] }),
  description: z
    .string({ error: "Group description is required" })
    .trim()
    .min(1, "Group description is required")
    .max(DESCRIPTION_MAX, `Group description must be ${DESCRIPTION_MAX} characters or fewer`)
    .meta({ examples: ["Everyone who bought this year"] }),
});

const cursorField = (what: string) =>
  z
    .string()
    .max(500)
    .optional()
    .meta({ description: `\`nextCursor\` of the previous page; leave out for the first ${what}.` });
const limitField = (what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: `${what} per page.` });

export const ListContactsQuery = z.strictObject({
  group: positiveId().optional().meta({ description: "Only the members of this group (one of yours)." }),
  cursor: cursorField("contacts"),
  limit: limitField("Contacts"),
});

export const ListGroupsQuery = z.strictObject({ cursor: cursorField("groups"), limit: limitField("Groups") });

export const ListMessagesQuery = z.strictObject({
  direction: z.enum(["outbound", "inbound"]).default("outbound").meta({
    description:
      "outbound: the messages you sent (the default); inbound: the messages phones sent you (replies, keywords), as InboundMessage.",
  }),
  status: z
    .enum(MESSAGE_STATUSES)
    .optional()
    .meta({ description: "Only messages with this status (outbound messages only: inbound ones have none)." }),
  cursor: cursorField("page (the newest messages)"),
  limit: limitField("Messages"),
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
  direction: z.literal("outbound").meta({ description: "A message you sent." }),
  id: z
    .int()
    .positive()
    .meta({ description: "The message's id, for GET /api/v1/messages/{id}.", examples: [42] }),
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

export const ScheduledMessageSchema = MessageSchema.extend({
  id: z.string().meta({
    description: "The scheduled message's id, for GET and DELETE /api/v1/messages/{id}.",
    examples: ["sch_7"],
  }),
  credits: z.int().nonnegative().meta({ description: "Credits it costs (1 per segment), charged when it goes out." }),
  status: z.enum(["scheduled", "cancelled", ...MESSAGE_STATUSES]).meta({
    description:
      "scheduled (waiting for sendAt), cancelled (by DELETE or on the Scheduled SMS screen; nothing was sent), then, once it went out, the status of the message it became (see Message).",
  }),
  sendAt: z.string().meta({ format: "date-time", description: "When it goes out (UTC).", examples: [EXAMPLE_SEND_AT] }),
  createdAt: z.string().meta({ format: "date-time", description: "When it was scheduled." }),
  messageId: z
    .int()
    .positive()
    .nullable()
    .meta({ description: "The message it became when it went out; null until then." }),
});
export type ApiScheduledMessage = z.infer<typeof ScheduledMessageSchema>;

/** POST /messages answers one or the other, depending on sendAt. */
export const SentOrScheduledSchema = z.union([MessageSchema, ScheduledMessageSchema]);

const GroupRefSchema = z.object({ id: z.int().positive(), name: z.string() });

export const ContactSchema = z.object({
  id: z
    .int()
    .positive()
    .meta({ examples: [12] }),
  name: z.string().meta({ examples: ["Ada Lovelace"] }),
  phone: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  email: z.string().meta({ examples: ["ada@example.com"] }),
  active: z
    .boolean()
    .meta({ description: "false: the contact opted out; group sends skip it. New contacts are active." }),
  groups: z.array(GroupRefSchema).meta({ description: "The groups it belongs to, A to Z." }),
});
export type ApiContact = z.infer<typeof ContactSchema>;

export const ContactListSchema = z.object({
  data: z.array(ContactSchema).meta({ description: "Name A to Z." }),
  nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
});

export const GroupSchema = z.object({
  id: z
    .int()
    .positive()
    .meta({ examples: [7] }),
  name: z.string().meta({ examples: ["Customers"] }),
  description: z.string(),
  members: z.int().nonnegative().meta({ description: "Contacts in the group, active or not." }),
});

export const GroupListSchema = z.object({
  data: z.array(GroupSchema).meta({ description: "Name A to Z." }),
  nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
});

export const GroupSendSchema = z.object({
  id: z
    .int()
    .positive()
    .meta({ description: "The group send's id, for GET /api/v1/group-sends/{id}.", examples: [3] }),
  groupId: z.int().positive().nullable().meta({ description: "null once the group has been deleted." }),
  groupName: z.string(),
  body: z.string(),
  status: z.enum(GROUP_SEND_STATUSES).meta({
    description: "queued (waiting to start), running (creating the messages), done, or failed (see stopReason).",
  }),
  finished: z.boolean().meta({ description: "true once done or failed: the counts are final." }),
  total: z.int().nonnegative().meta({ description: "Members of the group when the send started." }),
  queued: z.int().nonnegative().meta({ description: "Messages queued so far; follow each in GET /api/v1/messages." }),
  credits: z.int().nonnegative().meta({ description: "Credits charged so far." }),
  skipped: z
    .int()
    .nonnegative()
    .meta({ description: "Members not sent to (opted out, or a number that is not valid)." }),
  skips: z.array(z.object({ name: z.string(), phone: z.string(), reason: z.string() })).meta({
    description: `The first 10 skipped members and why: "${SKIP_REASONS.optedOut}", "${SKIP_REASONS.optOutList}" or "${SKIP_REASONS.invalid}".`,
  }),
  stopReason: z.string().nullable().meta({ description: "Why it stopped early or failed (e.g. the credits ran out)." }),
  summary: z.string().meta({
    description: "The report as the Groups screen words it.",
    examples: [
      "Queued 98 messages (196 credits); skipped 2: +12025550100 opted out, +12025550101 invalid phone number.",
    ],
  }),
  statusUrl: z.string().meta({ description: "Where to follow its progress until `finished`." }),
});
export type ApiGroupSend = z.infer<typeof GroupSendSchema>;

export const INBOUND_ID_PREFIX = "in_";

export const InboundMessageSchema = z.object({
  direction: z.literal("inbound").meta({ description: "A message a phone sent you." }),
  id: z.string().meta({ description: "The inbound message's id.", examples: ["in_12"] }),
  from: z.string().meta({ description: "The phone that sent it (E.164).", examples: [EXAMPLE_PHONE] }),
  to: z.string().meta({ description: "The sender it was sent to: yours, or the shared default sender." }),
  body: z.string().meta({ description: "The text, its parts joined.", examples: ["Yes, see you then"] }),
  encoding: z.enum(["GSM-7", "Latin-1", "UCS-2"]),
  parts: z.int().positive().meta({ description: "SMS parts it came in." }),
  receivedAt: z.string().meta({ format: "date-time", examples: ["2026-03-01T09:31:00.000Z"] }),
});
export type ApiInboundMessage = z.infer<typeof InboundMessageSchema>;

export const MessageListSchema = z.object({
  data: z
    .array(z.union([MessageSchema, InboundMessageSchema]))
    .meta({ description: "Newest first: Message objects, or InboundMessage objects with direction=inbound." }),
  nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
});

export const OptOutIdParams = idParams("One of your opt-outs' id (GET /api/v1/opt-outs).");

export const ListOptOutsQuery = z.strictObject({ cursor: cursorField("opt-outs"), limit: limitField("Opt-outs") });

export const OptOutSchema = z.object({
  id: z
    .int()
    .positive()
    .meta({ examples: [5] }),
  phone: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  source: z.enum(OPT_OUT_SOURCES).meta({
    description:
      "keyword: the phone replied STOP (or UNSUBSCRIBE, CANCEL, ...); only its START lifts it. manual / csv: you added it, by hand (or this API) or by a CSV upload; you can remove it.",
  }),
  sender: z.string().nullable().meta({
    description:
      "For a keyword opt-out, the sender it replied to (null: the gateway's shared sender). null for numbers you added, which cover all your senders.",
  }),
  keyword: z
    .string()
    .nullable()
    .meta({ description: "The word it sent, e.g. STOP.", examples: ["STOP"] }),
  createdAt: z.string().meta({ format: "date-time", description: "When it opted out." }),
});
export type ApiOptOut = z.infer<typeof OptOutSchema>;

export const OptOutListSchema = z.object({
  data: z.array(OptOutSchema).meta({ description: "Newest first." }),
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
