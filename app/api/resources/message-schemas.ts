// The messages resource's shapes: the path id and list filters it reads, and the Message,
// ScheduledMessage, InboundMessage, batch result and quote it answers.
import { z } from "zod";
import { MESSAGE_ERROR_CODES } from "#app/modules/sms/message-resource.ts";
import { MESSAGE_STATUSES } from "#app/modules/messaging/message-status.ts";
import { BATCH_REFUSALS } from "#app/modules/sms/batch.ts";
import {
  cursorField,
  cursorPage,
  EXAMPLE_BODY,
  EXAMPLE_PHONE,
  EXAMPLE_SEND_AT,
  isoTime,
  limitField,
  messageIdField,
  nullableIsoTime,
  positiveId,
} from "#app/api/schemas.ts";

/** Scheduled messages have ids of their own kind (they are schedules until they go out): sch_7. */
export const SCHEDULED_ID_PREFIX = "sch_";
const scheduledId = z.string().regex(/^sch_[1-9][0-9]{0,14}$/);

export const MessageIdParams = z.strictObject({
  id: z.union([scheduledId, positiveId()]).meta({
    description:
      "A message's id (a number), or a scheduled message's id (`sch_` and a number) as POST /messages answered it.",
  }),
});

const queryTime = (description: string) =>
  z.iso
    .datetime({ offset: true, error: "Give a date and time with a zone, e.g. 2026-03-01T00:00:00Z" })
    .optional()
    .meta({ description, examples: ["2026-03-01T00:00:00Z"] });

export const ListMessagesQuery = z.strictObject({
  direction: z.enum(["outbound", "inbound"]).default("outbound").meta({
    description:
      "outbound: the messages you sent (the default); inbound: the messages phones sent you (replies, keywords), as InboundMessage.",
  }),
  status: z
    .enum(MESSAGE_STATUSES)
    .optional()
    .meta({ description: "Only messages with this status (outbound messages only: inbound ones have none)." }),
  to: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .meta({
      description:
        "Only messages to this phone (outbound; as in `to` of POST /messages) or to this sender (inbound: `default` for the gateway's shared sender).",
      examples: [EXAMPLE_PHONE],
    }),
  from: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .meta({
      description:
        "Only messages from this sender (outbound: one of your sender names; `default` for the gateway's shared sender) or from this phone (inbound, E.164).",
      examples: ["AcmeAlerts"],
    }),
  groupSendId: positiveId().optional().meta({ description: "Only the messages of this group send (outbound only)." }),
  createdAfter: queryTime("Only messages created (inbound: received) at or after this time."),
  createdBefore: queryTime("Only messages created (inbound: received) before this time."),
  cursor: cursorField("page (the newest messages)"),
  limit: limitField("Messages"),
});
export type ListMessagesOptions = z.output<typeof ListMessagesQuery>;

export const MessageSchema = z.object({
  direction: z.literal("outbound").meta({ description: "A message you sent." }),
  id: messageIdField(),
  to: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  from: z
    .string()
    .nullable()
    .meta({
      description: "The sender it goes out from (one of your senders); null: the gateway's shared sender.",
      examples: ["AcmeAlerts"],
    }),
  body: z.string().meta({ description: "The text as sent (line breaks as \\n).", examples: [EXAMPLE_BODY] }),
  encoding: z.enum(["GSM-7", "UCS-2"]),
  segments: z.int().positive().meta({ description: "SMS parts it is sent in." }),
  credits: z
    .int()
    .nonnegative()
    .meta({ description: "Credits charged: segments x the price per segment to its destination (1 by default)." }),
  status: z.enum(MESSAGE_STATUSES).meta({
    description:
      "queued (waiting), submitting (being handed over), submitted (accepted by the carrier), then delivered, undelivered, expired or rejected as the delivery receipt says; failed (not sent, credits refunded); unknown.",
  }),
  statusDetail: z.string().nullable().meta({ description: "Why it failed, or what the receipt said." }),
  groupSendId: z
    .int()
    .positive()
    .nullable()
    .meta({ description: "The group send it belongs to (GET /api/v1/group-sends/{id}); null for a single send." }),
  errorCode: z
    .enum(MESSAGE_ERROR_CODES)
    .nullable()
    .meta({
      description:
        "Why it did not arrive, for programs: send_failed (refused before the carrier, credits refunded), recipient_opted_out, or the carrier's undelivered, expired or rejected; null otherwise.",
      examples: [null],
    }),
  errorMessage: z
    .string()
    .nullable()
    .meta({ description: "The same in words (with the carrier's error code when it gave one); null otherwise." }),
  createdAt: isoTime("When it was accepted.").meta({ examples: ["2026-03-01T09:30:00.000Z"] }),
  submittedAt: nullableIsoTime("When the carrier accepted it; null before."),
  doneAt: nullableIsoTime("When it reached a final status (delivered, failed, ...); null before."),
  updatedAt: isoTime(
    "When its status last changed: of two webhook events or answers about it, the later updatedAt is current.",
  ),
});
export type ApiMessage = z.infer<typeof MessageSchema>;

export const ScheduledMessageSchema = MessageSchema.extend({
  id: z.string().meta({
    description: "The scheduled message's id, for GET and DELETE /api/v1/messages/{id}.",
    examples: ["sch_7"],
  }),
  credits: z.int().nonnegative().meta({
    description: "Credits it costs (segments x the price per segment to its destination), charged when it goes out.",
  }),
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

export const MessageListSchema = cursorPage(
  z.union([MessageSchema, InboundMessageSchema]),
  "Newest first: Message objects, or InboundMessage objects with direction=inbound.",
);

export const BatchResultSchema = z.object({
  total: z.int().nonnegative().meta({ description: "Recipients in the request." }),
  queued: z.int().nonnegative().meta({ description: "Messages queued." }),
  refused: z.int().nonnegative().meta({ description: "Recipients not sent to; each result says why." }),
  credits: z.int().nonnegative().meta({ description: "Credits charged: only the queued messages'." }),
  balance: z.int().nonnegative().meta({ description: "Your balance after the batch." }),
  results: z
    .array(
      z.union([
        z.object({
          index: z.int().nonnegative().meta({ description: "The recipient's place in `messages`, from 0." }),
          status: z.literal("queued"),
          message: MessageSchema,
        }),
        z.object({
          index: z.int().nonnegative(),
          status: z.literal("refused"),
          to: z.string().meta({ description: "The recipient as given." }),
          error: z.object({
            code: z.enum(BATCH_REFUSALS).meta({
              description:
                "invalid_phone, recipient_opted_out, unknown_sender (`from`), or insufficient_credits (the balance ran out before this recipient: it pays the batch in order, see the description).",
            }),
            message: z.string(),
          }),
        }),
      ]),
    )
    .meta({ description: "One result per recipient, in the order of `messages`." }),
});
export type ApiBatchResult = z.infer<typeof BatchResultSchema>;

const QuoteItemSchema = z.object({
  encoding: z.enum(["GSM-7", "UCS-2"]).meta({ description: "GSM-7, or UCS-2 when a character needs it." }),
  characters: z.int().nonnegative().meta({ description: "Characters as typed (Unicode code points)." }),
  segments: z.int().positive().meta({ description: "SMS parts it is sent in." }),
  creditsPerSegment: z
    .int()
    .positive()
    .meta({ description: "What a segment costs to its recipient's destination (1 unless the price list says more)." }),
  credits: z.int().nonnegative().meta({ description: "What sending it charges: segments x creditsPerSegment." }),
  nonGsmCharacters: z
    .array(z.string())
    .meta({ description: "The characters that force UCS-2 (empty for GSM-7).", examples: [["😀", "ő"]] }),
});

export const QuoteSchema = z.object({
  messages: z.int().positive().meta({ description: "Messages quoted: 1 for a body, or the batch's recipients." }),
  segments: z.int().positive().meta({ description: "Segments of all of them." }),
  credits: z.int().nonnegative().meta({
    description:
      "What sending them charges, exactly as POST /messages or /messages/batch would; refused recipients (invalid numbers, opt-outs) are not charged.",
  }),
  encoding: z.enum(["GSM-7", "UCS-2"]).meta({ description: "UCS-2 when any message needs it." }),
  nonGsmCharacters: z.array(z.string()).meta({ description: "Every character that forces UCS-2, once each." }),
  items: z.array(QuoteItemSchema).meta({ description: "Each message's quote, in order." }),
});
