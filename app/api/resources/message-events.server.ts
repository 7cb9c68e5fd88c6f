// A message's journey on the REST API: GET /messages/{id}/events, the events the page
// /sms/messages/:id shows, from what the gateway stored on the way (app/modules/journey).
import { z } from "zod";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { notFoundError } from "#app/api/errors.ts";
import { idParams, isoTime, messageIdField } from "#app/api/schemas.ts";
import { SUBMIT_ATTEMPT_OUTCOMES } from "#app/db/schema/sms-attempts.ts";
import { WEBHOOK_DELIVERY_STATUSES } from "#app/db/schema/webhooks.ts";
import { getJourney } from "#app/modules/journey/journey.server.ts";
import { MESSAGE_ERROR_CODES } from "#app/modules/sms/message-resource.ts";
import { MESSAGE_STATUSES } from "#app/modules/messaging/message-status.ts";
import { latestMessageId } from "#app/modules/sms/own-messages.server.ts";

const at = isoTime("When it happened.").meta({ examples: ["2026-03-01T09:30:00.000Z"] });
const nullableText = (description: string) => z.string().nullable().meta({ description });

const MessageEventSchema = z.union([
  z.object({
    type: z.literal("accepted"),
    at,
    via: z.enum(["api", "page", "group_send", "schedule", "reply"]).meta({
      description:
        "api (an API key), page (the website), group_send, schedule, or reply (an automatic answer to STOP, START or HELP).",
    }),
    apiKeyName: nullableText("The name of the API key that sent it; null when not the API, or the key was deleted."),
    groupSendId: z.int().positive().nullable(),
    scheduleId: z.int().positive().nullable(),
  }),
  z.object({ type: z.literal("charged"), at, credits: z.int().nonnegative() }),
  z.object({
    type: z.literal("held"),
    at,
    reason: z.literal("quiet_hours"),
    until: isoTime("When the account's quiet hours let it go."),
  }),
  z.object({ type: z.literal("queued"), at }),
  z.object({
    type: z.literal("submit_attempt"),
    at,
    upstream: nullableText("The upstream (SMSC connection) it was handed to; null when not reported."),
    bind: nullableText("The bind that carried it; null when not reported."),
    outcome: z.enum(SUBMIT_ATTEMPT_OUTCOMES).meta({
      description: "accepted (every part taken), temporary (tried again later) or permanent (refused for good).",
    }),
    commandStatus: z
      .int()
      .nonnegative()
      .nullable()
      .meta({ description: "The submit_sm_resp's command_status (0: accepted); null when not reported." }),
    smscMessageIds: z.array(z.string()).meta({ description: "The SMSC's message ids of the parts it accepted." }),
    error: nullableText("Why it was not taken."),
  }),
  z.object({
    type: z.literal("receipt"),
    at,
    part: z.int().positive(),
    smscMessageId: z.string(),
    stat: z.string().meta({ description: "The receipt's stat: DELIVRD, UNDELIV, EXPIRED, REJECTD or UNKNOWN." }),
    err: nullableText("The carrier's err code, when it gave one."),
  }),
  z.object({
    type: z.literal("failed"),
    at,
    code: z.enum(MESSAGE_ERROR_CODES).nullable(),
    reason: nullableText("Why, in words."),
  }),
  z.object({
    type: z.literal("answer_unknown"),
    at,
    reason: nullableText("Why the SMSC's answer is unknown; the message is never sent again or elsewhere."),
  }),
  z.object({ type: z.literal("refunded"), at, credits: z.int().positive(), reason: nullableText("Why.") }),
  z.object({
    type: z.literal("webhook"),
    at: isoTime("Its last attempt (or when it was queued, before one)."),
    event: z.string().meta({ examples: ["message.delivered"] }),
    url: nullableText("The endpoint's URL, or the message's statusCallback URL; null when the endpoint was deleted."),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.int().nonnegative(),
    lastStatusCode: z.int().nullable(),
    lastAnswer: nullableText("The start of the last answer, or why there was none."),
  }),
]);

const MessageEventsSchema = z.object({
  messageId: messageIdField(),
  status: z.enum(MESSAGE_STATUSES).meta({ description: "The message's status now (see Message)." }),
  events: z.array(MessageEventSchema).meta({ description: "Oldest first." }),
});

const iso = (ms: number) => new Date(ms).toISOString();

export const MESSAGE_EVENT_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: `${API_BASE}/messages/{id}/events`,
    operationId: "getMessageEvents",
    tag: "Messages",
    summary: "A message's journey",
    description:
      "Everything the gateway recorded about one message, oldest first: how it was accepted (which API key or screen), its charge, a quiet-hours hold, each submit attempt (upstream, bind, SMSC message ids, command status), each part's delivery receipt (stat and err), a failure and its refund, and each webhook delivery about it. The page /sms/messages/{id} shows the same.",
    auth: true,
    scope: "messages:read",
    params: idParams("A message's id (a number)."),
    success: { status: 200, description: "The message's events.", schema: MessageEventsSchema },
    errors: ["not_found"],
    example: { params: { id: 42 }, readerParams: async (userId) => ({ id: await latestMessageId(userId) }) },
    handle: async ({ userId, params }) => {
      const journey = await getJourney(userId, params.id);
      if (!journey) throw notFoundError("message");
      const events = journey.events.map((event) =>
        event.type === "held"
          ? { ...event, at: iso(event.at), until: iso(event.until) }
          : { ...event, at: iso(event.at) },
      );
      return { body: { messageId: journey.message.id, status: journey.message.status, events } };
    },
  }),
];
