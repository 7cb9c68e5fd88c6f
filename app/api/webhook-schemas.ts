// The events webhook endpoints receive: one zod schema per event type (the webhooks helpers' shared
// contract), from which the OpenAPI document's `webhooks` section and the public reference are generated.
import { z } from "zod";
import { MESSAGE_STATUSES, OPT_OUT_SOURCES } from "#app/db/enums.ts";
import { EXAMPLE_BODY, EXAMPLE_PHONE, groupSendIdField, idField, messageIdField } from "#app/api/schemas.ts";
import { InboundMessageSchema } from "#app/api/resources/message-schemas.ts";

const isoTime = (description: string, example: string) =>
  z.string().meta({ format: "date-time", description, examples: [example] });
const nullableIsoTime = (description: string) => z.string().nullable().meta({ format: "date-time", description });

/** An outbound message as GET /api/v1/messages/{id} shows it at the time of the event. */
export const WebhookMessageSchema = z.object({
  id: messageIdField(),
  direction: z.literal("outbound"),
  to: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  from: z.string().nullable().meta({ description: "The sender it went out from (null: the gateway's shared one)." }),
  body: z.string().meta({ description: "The text as sent.", examples: [EXAMPLE_BODY] }),
  status: z.enum(MESSAGE_STATUSES).meta({ description: "The message's status now, as GET /messages/{id} shows it." }),
  encoding: z.enum(["GSM-7", "UCS-2"]),
  segments: z.int().positive().meta({ description: "SMS parts it is sent in." }),
  credits: z
    .int()
    .nonnegative()
    .meta({ description: "Credits charged: 1 per segment (refunded if it failed before the carrier)." }),
  groupSendId: z.int().positive().nullable().meta({ description: "The group send it belongs to, if any." }),
  errorCode: z.string().nullable().meta({ description: "Why it failed (a carrier or gateway code); null otherwise." }),
  errorMessage: z.string().nullable().meta({ description: "The reason in words; null unless it failed." }),
  createdAt: isoTime("When it was accepted.", "2026-03-01T09:30:00.000Z"),
  submittedAt: nullableIsoTime("When the carrier accepted it."),
  doneAt: nullableIsoTime("When it reached a final status."),
  updatedAt: isoTime(
    "When its status last changed. Events may arrive out of order (and, while the gateway sends at full speed, up to some 10 seconds late): keep the one with the newest updatedAt.",
    "2026-03-01T09:30:04.000Z",
  ),
});

const OptOutChangeSchema = z.object({
  phone: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  sender: z.string().nullable().meta({ description: "The sender it applies to; null: all your senders." }),
  optedOut: z.boolean().meta({ description: "true: messages to it are refused from now on; false: allowed again." }),
  source: z.enum(OPT_OUT_SOURCES).meta({ description: "keyword (the phone sent STOP or START), manual or csv." }),
  keyword: z
    .string()
    .nullable()
    .meta({ description: "The word it sent, e.g. STOP.", examples: ["STOP"] }),
  updatedAt: isoTime("When it changed.", "2026-03-01T10:00:00.000Z"),
});

const GroupSendCompletedSchema = z.object({
  id: groupSendIdField(),
  groupId: z.int().positive().nullable().meta({ description: "null once the group has been deleted." }),
  total: z.int().nonnegative().meta({ description: "Members of the group when the send started." }),
  queued: z.int().nonnegative().meta({ description: "Messages created." }),
  skipped: z.int().nonnegative().meta({ description: "Members not sent to (opted out, or an invalid number)." }),
  sent: z.int().nonnegative().meta({ description: "Messages the carrier accepted." }),
  delivered: z.int().nonnegative().meta({ description: "Messages delivered." }),
  failed: z.int().nonnegative().meta({ description: "Messages that failed, were undelivered, expired or rejected." }),
  completedAt: isoTime("When the last message reached a final status.", "2026-03-01T09:45:00.000Z"),
});

const BalanceLowSchema = z.object({
  balance: z
    .int()
    .nonnegative()
    .meta({ description: "Credits left.", examples: [40] }),
  threshold: z
    .int()
    .nonnegative()
    .meta({ description: "The level you asked to be told about.", examples: [50] }),
  updatedAt: isoTime("When the balance went below the threshold.", "2026-03-01T11:00:00.000Z"),
});

const TestEventSchema = z.object({
  endpointId: idField(1, "The endpoint the test was sent to."),
  message: z.literal("This is a test event."),
});

const exampleMessage = (status: z.infer<typeof WebhookMessageSchema>["status"], failed = false) => ({
  id: 42,
  direction: "outbound",
  to: EXAMPLE_PHONE,
  from: "AcmeAlerts",
  body: EXAMPLE_BODY,
  status,
  encoding: "GSM-7",
  segments: 1,
  credits: 1,
  groupSendId: null,
  errorCode: failed ? "001" : null,
  errorMessage: failed ? "The phone was switched off until the message expired." : null,
  createdAt: "2026-03-01T09:30:00.000Z",
  submittedAt: "2026-03-01T09:30:01.000Z",
  doneAt: status === "submitted" ? null : "2026-03-01T09:30:04.000Z",
  updatedAt: status === "submitted" ? "2026-03-01T09:30:01.000Z" : "2026-03-01T09:30:04.000Z",
});

type WebhookEvent = {
  type: string;
  summary: string;
  description: string;
  data: z.ZodType;
  example: Record<string, unknown>;
};

/** Every event type an endpoint can subscribe to (and webhook.test, which the Test button sends). */
export const WEBHOOK_EVENTS: WebhookEvent[] = [
  {
    type: "message.sent",
    summary: "A message reached the carrier",
    description: "The carrier accepted the message (status `submitted`); a delivery receipt follows.",
    data: WebhookMessageSchema,
    example: exampleMessage("submitted"),
  },
  {
    type: "message.delivered",
    summary: "A message was delivered",
    description: "The delivery receipt says the phone received it (status `delivered`).",
    data: WebhookMessageSchema,
    example: exampleMessage("delivered"),
  },
  {
    type: "message.failed",
    summary: "A message will not be delivered",
    description:
      "Status `undelivered`, `expired`, `rejected` or `failed` (never sent; its credits are refunded); `errorCode` and `errorMessage` say why.",
    data: WebhookMessageSchema,
    example: exampleMessage("expired", true),
  },
  {
    type: "message.received",
    summary: "A phone sent you a message",
    description: "An inbound message, as GET /api/v1/messages?direction=inbound lists it.",
    data: InboundMessageSchema,
    example: {
      id: "in_12",
      direction: "inbound",
      from: EXAMPLE_PHONE,
      to: "AcmeAlerts",
      body: "Yes, see you then",
      encoding: "GSM-7",
      parts: 1,
      receivedAt: "2026-03-01T09:31:00.000Z",
    },
  },
  {
    type: "opt_out.changed",
    summary: "A number opted out or back in",
    description: "A phone replied STOP or START, or a number was added to or removed from your opt-outs.",
    data: OptOutChangeSchema,
    example: {
      phone: EXAMPLE_PHONE,
      sender: "AcmeAlerts",
      optedOut: true,
      source: "keyword",
      keyword: "STOP",
      updatedAt: "2026-03-01T10:00:00.000Z",
    },
  },
  {
    type: "group_send.completed",
    summary: "A group send finished",
    description: "Every message of a group send reached a final status: the final counts.",
    data: GroupSendCompletedSchema,
    example: {
      id: 3,
      groupId: 7,
      total: 100,
      queued: 98,
      skipped: 2,
      sent: 98,
      delivered: 95,
      failed: 3,
      completedAt: "2026-03-01T09:45:00.000Z",
    },
  },
  {
    type: "balance.low",
    summary: "Your credit balance fell below your threshold",
    description: "Sent once each time the balance goes below the threshold.",
    data: BalanceLowSchema,
    example: { balance: 40, threshold: 50, updatedAt: "2026-03-01T11:00:00.000Z" },
  },
  {
    type: "webhook.test",
    summary: "A test event",
    description: 'Sent by "Send a test event" on the Webhooks screen or POST /api/v1/webhooks/{id}/test.',
    data: TestEventSchema,
    example: { endpointId: 1, message: "This is a test event." },
  },
];

/** The OpenAPI component name of an event's body: message.sent -> MessageSentEvent. */
export const webhookEventSchemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join("")}Event`;

/** The body of one delivery of `event`: the envelope every event shares around its data. */
export function webhookEventSchema(event: WebhookEvent): z.ZodType {
  return z
    .object({
      type: z.literal(event.type),
      timestamp: isoTime("When the event happened.", "2026-03-01T09:30:04.000Z"),
      data: event.data,
    })
    .meta({
      description: event.description,
      examples: [{ type: event.type, timestamp: "2026-03-01T09:30:04.000Z", data: event.example }],
    });
}

const header = (name: string, description: string, example: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
  example,
});

/** The OpenAPI 3.1 `webhooks` section: what we POST to your endpoint, one entry per event type. */
export function webhooksSection(ref: (name: string) => Record<string, unknown>): Record<string, unknown> {
  const entries = WEBHOOK_EVENTS.map((event) => [
    event.type,
    {
      post: {
        operationId: `${event.type.replace(/[._](.)/g, (_, letter: string) => letter.toUpperCase())}Webhook`,
        tags: ["Webhooks"],
        summary: event.summary,
        description: event.description,
        parameters: [
          header(
            "webhook-id",
            "The event's id: the same on every retry and redelivery of this event, so use it to ignore duplicates.",
            "evt_01KMZ7Q4R8T2V6X9B3D5F7H1JK",
          ),
          header("webhook-timestamp", "Unix seconds of this attempt; refuse it if far from your clock.", "1772357404"),
          header(
            "webhook-signature",
            "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with your endpoint's secret; several space-separated while a secret is being rotated.",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
          ),
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: ref(webhookEventSchemaName(event.type)),
              example: { type: event.type, timestamp: "2026-03-01T09:30:04.000Z", data: event.example },
            },
          },
        },
        responses: {
          "2XX": {
            description:
              "Received. Anything else, no answer within 10 seconds, or a redirect (not followed) is a failure: the same event is sent again with exponential backoff, for up to 24 hours by default.",
          },
        },
      },
    },
  ]);
  return Object.fromEntries(entries);
}
