// Browser-safe: the events of a message's journey (journey.server.ts builds them), and the words the
// page shows for each.
import type { SubmitAttemptOutcome } from "#app/db/schema/sms-attempts.ts";
import type { WebhookDeliveryStatus } from "#app/db/schema/webhooks.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import type { MessageErrorCode } from "#app/modules/sms/message-resource.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";

/** How a message came in: an API key, a page, a group send, a schedule, or an automatic reply to a keyword. */
export type AcceptedVia = "api" | "page" | "group_send" | "schedule" | "reply";

export type JourneyEvent = { at: number } & (
  | {
      type: "accepted";
      via: AcceptedVia;
      /** The API key's name; null when not the API, or the key was deleted since. */
      apiKeyName: string | null;
      groupSendId: number | null;
      scheduleId: number | null;
    }
  | { type: "charged"; credits: number }
  | { type: "held"; reason: "quiet_hours"; until: number }
  | { type: "queued" }
  | {
      type: "submit_attempt";
      upstream: string | null;
      bind: string | null;
      outcome: SubmitAttemptOutcome;
      commandStatus: number | null;
      smscMessageIds: string[];
      error: string | null;
    }
  | {
      type: "receipt";
      part: number;
      smscMessageId: string;
      /** The receipt's `stat:` (DELIVRD, UNDELIV, EXPIRED, REJECTD or UNKNOWN). */
      stat: string;
      /** The carrier's `err:` code, when it gave one. */
      err: string | null;
    }
  | { type: "failed"; code: MessageErrorCode | null; reason: string | null }
  | { type: "answer_unknown"; reason: string | null }
  | { type: "refunded"; credits: number; reason: string | null }
  | {
      type: "webhook";
      event: string;
      /** The endpoint's URL, or the message's own statusCallback URL. */
      url: string | null;
      status: WebhookDeliveryStatus;
      attempts: number;
      lastStatusCode: number | null;
      lastAnswer: string | null;
    }
);

export type JourneyMessage = {
  id: number;
  to: string;
  from: string | null;
  body: string;
  segments: number;
  credits: number;
  status: MessageStatus;
  statusDetail: string | null;
};

/** An event in words: a title, and its details one per line. */
export type DescribedEvent = { title: string; details: string[] };

const hex = (status: number) => `0x${status.toString(16).padStart(8, "0")}`;

function acceptedBy(event: Extract<JourneyEvent, { type: "accepted" }>): string {
  switch (event.via) {
    case "api":
      return event.apiKeyName === null
        ? "Sent through the API (a key deleted since)"
        : `Sent through the API with the key "${event.apiKeyName}"`;
    case "page":
      return "Sent from the website";
    case "group_send":
      return `Sent by group send #${event.groupSendId}`;
    case "schedule":
      return event.groupSendId === null
        ? `Sent by schedule #${event.scheduleId}`
        : `Sent by schedule #${event.scheduleId}, as group send #${event.groupSendId}`;
    case "reply":
      return "An automatic reply to a keyword (STOP, START or HELP)";
  }
}

const ATTEMPT_TITLES: Record<SubmitAttemptOutcome, string> = {
  accepted: "Accepted by the SMSC",
  temporary: "Not taken by the SMSC: tried again later",
  permanent: "Refused by the SMSC",
  unknown: "Written to the SMSC, never answered: not sent again, nor elsewhere",
  passed_on: "Not taken by this upstream: passed to the next one on its route",
};

const WEBHOOK_STATES: Record<WebhookDeliveryStatus, string> = {
  delivered: "delivered",
  pending: "still trying",
  failed: "given up",
};

/** What the page says of an event; times in `timeZone`. */
export function describeEvent(event: JourneyEvent, timeZone: string): DescribedEvent {
  switch (event.type) {
    case "accepted":
      return { title: "Accepted", details: [acceptedBy(event)] };
    case "charged":
      return { title: "Charged", details: [pluralize(event.credits, "credit")] };
    case "held":
      return {
        title: "Held for quiet hours",
        details: [`Goes out at ${formatDateTime(event.until, timeZone, { seconds: true })} (${timeZone})`],
      };
    case "queued":
      return { title: "Queued", details: ["In line for the sending worker"] };
    case "submit_attempt":
      return {
        title: ATTEMPT_TITLES[event.outcome],
        details: [
          [
            `Upstream ${event.upstream ?? "not reported"}`,
            `bind ${event.bind ?? "not reported"}`,
            event.commandStatus === null ? null : `command status ${hex(event.commandStatus)}`,
          ]
            .filter((part) => part !== null)
            .join(" · "),
          ...(event.smscMessageIds.length > 0 ? [`SMSC message id ${event.smscMessageIds.join(", ")}`] : []),
          ...(event.error ? [event.error] : []),
        ],
      };
    case "receipt":
      return {
        title: "Delivery receipt",
        details: [
          `Part ${formatNumber(event.part)} · SMSC message id ${event.smscMessageId}`,
          `stat ${event.stat} · err ${event.err ?? "none"}`,
        ],
      };
    case "failed":
      return { title: "Failed", details: event.reason ? [event.reason] : [] };
    case "answer_unknown":
      return {
        title: "The SMSC's answer never came",
        details: [
          "It may have been sent, so it is never sent again or elsewhere",
          ...(event.reason ? [event.reason] : []),
        ],
      };
    case "refunded":
      return {
        title: "Refunded",
        details: [pluralize(event.credits, "credit"), ...(event.reason ? [event.reason] : [])],
      };
    case "webhook":
      return {
        title: `Webhook ${event.event}`,
        details: [
          `To ${event.url ?? "an endpoint deleted since"}`,
          `${WEBHOOK_STATES[event.status]}${event.lastStatusCode === null ? "" : ` (HTTP ${event.lastStatusCode})`} · ${pluralize(event.attempts, "attempt")}`,
          ...(event.lastAnswer && event.status !== "delivered" ? [event.lastAnswer] : []),
        ],
      };
  }
}
