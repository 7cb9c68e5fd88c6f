// One message's journey, built from what the send path stored on the way (the message, its ledger
// entries, its submit attempts and parts, its webhook deliveries), never from logs. Every read is
// by the owner's id, so another account's message is simply not found.
import { sqlText, statements } from "#app/db/statements.server.ts";
import type { MessageSource } from "#app/db/schema/sms.ts";
import type { SubmitAttemptOutcome } from "#app/db/schema/sms-attempts.ts";
import type { WebhookDeliveryStatus } from "#app/db/schema/webhooks.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import { toMessageResource } from "#app/modules/sms/message-resource.ts";
import type { AcceptedVia, JourneyEvent, JourneyMessage } from "#app/modules/journey/journey-events.ts";

export type Journey = { message: JourneyMessage; events: JourneyEvent[] };

type MessageRow = JourneyMessage & {
  encoding: "GSM-7" | "UCS-2";
  source: MessageSource;
  apiKeyId: number | null;
  apiKeyName: string | null;
  scheduleId: number | null;
  groupSendId: number | null;
  deferredUntil: number | null;
  createdAt: number;
  updatedAt: number;
  submittedAt: number | null;
  doneAt: number | null;
};

type LedgerRow = { kind: string; amount: number; note: string | null; createdAt: number };
type AttemptRow = {
  at: number;
  upstream: string | null;
  bind: string | null;
  outcome: SubmitAttemptOutcome;
  commandStatus: number | null;
  providerIds: string | null;
  error: string | null;
};
type PartRow = { part: number; providerId: string; status: MessageStatus; error: string | null; updatedAt: number };
type DeliveryRow = {
  event: string;
  url: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastAnswer: string | null;
  at: number;
};

const queries = statements({
  // The key's name only while it is the owner's (api_key_id has no foreign key: a deleted key finds none).
  message: sqlText<[number, number], MessageRow>(
    `select m.id, m.to_phone as "to", m.from_address as "from", m.body, m.encoding, m.segments, m.credits, m.status,
     m.error as "statusDetail", m.source, m.api_key_id as "apiKeyId", k.name as "apiKeyName",
     m.schedule_id as "scheduleId", m.group_send_id as "groupSendId", m.deferred_until as "deferredUntil",
     m.created_at as "createdAt", m.updated_at as "updatedAt", m.submitted_at as "submittedAt", m.done_at as "doneAt"
   from sms_messages m left join api_keys k on k.id = m.api_key_id and k.user_id = m.user_id
   where m.id = ? and m.user_id = ?`,
  ),
  // The send's debit and a failure's refund are keyed by the message id (send.server.ts, dispatch.server.ts).
  ledger: sqlText<[number, string, string], LedgerRow>(
    `select kind, amount, note, created_at as "createdAt" from credit_ledger
   where user_id = ? and key in (?, ?) order by id`,
  ),
  // Attempts name the upstream by id ("env": the environment's, named "default"); shown by its name now.
  attempts: sqlText<[number], AttemptRow>(
    `select a.attempted_at as "at", case when a.upstream = 'env' then 'default' else coalesce(u.name, a.upstream) end as upstream,
     a.bind, a.outcome, a.command_status as "commandStatus", a.provider_ids as "providerIds", a.error
   from sms_submit_attempts a left join upstreams u on cast(u.id as text) = a.upstream
   where a.message_id = ? order by a.id`,
  ),
  parts: sqlText<[number], PartRow>(
    `select part, provider_id as "providerId", status, error, updated_at as "updatedAt"
   from sms_message_parts where message_id = ? order by part`,
  ),
  // A message's events are written by the changes that moved it: between its creation and its last
  // update (the created_at index), then found by the message id in their payload.
  deliveries: sqlText<[number, number, number, number], DeliveryRow>({
    sqlite: `select e.type as "event", coalesce(d.url, w.url) as "url", d.status, d.attempts,
     d.last_status_code as "lastStatusCode", d.last_answer as "lastAnswer",
     coalesce(d.last_attempt_at, d.created_at) as "at"
   from webhook_events e join webhook_deliveries d on d.event_id = e.id
     left join webhook_endpoints w on w.id = d.endpoint_id
   where e.created_at between ? and ? and e.user_id = ? and e.type like 'message.%'
     and e.payload ->> '$.data.id' = ?
   order by e.id, d.id`,
    postgres: `select e.type as "event", coalesce(d.url, w.url) as "url", d.status, d.attempts,
     d.last_status_code as "lastStatusCode", d.last_answer as "lastAnswer",
     coalesce(d.last_attempt_at, d.created_at) as "at"
   from webhook_events e join webhook_deliveries d on d.event_id = e.id
     left join webhook_endpoints w on w.id = d.endpoint_id
   where e.created_at between $1 and $2 and e.user_id = $3 and e.type like 'message.%'
     and e.payload::jsonb #>> '{data,id}' = $4::text
   order by e.id, d.id`,
  }),
});

// A receipt's status is stored mapped from its stat (transport-types.ts' receiptStatus): this is its stat again.
const STATS: Partial<Record<MessageStatus, string>> = {
  delivered: "DELIVRD",
  undelivered: "UNDELIV",
  expired: "EXPIRED",
  rejected: "REJECTD",
};

const VIA: Record<MessageSource, AcceptedVia> = {
  api: "api",
  web: "page",
  group: "group_send",
  schedule: "schedule",
  keyword: "reply",
};

// Same-instant events keep the order a message lives them.
const ORDER: JourneyEvent["type"][] = [
  "accepted",
  "charged",
  "held",
  "queued",
  "submit_attempt",
  "receipt",
  "answer_unknown",
  "failed",
  "refunded",
  "webhook",
];

function messageEvents(row: MessageRow): JourneyEvent[] {
  const events: JourneyEvent[] = [
    {
      at: row.createdAt,
      type: "accepted",
      via: VIA[row.source],
      apiKeyName: row.apiKeyName,
      groupSendId: row.groupSendId,
      scheduleId: row.scheduleId,
    },
  ];
  if (row.deferredUntil !== null)
    events.push({ at: row.createdAt, type: "held", reason: "quiet_hours", until: row.deferredUntil });
  // A message failed as it was made (a schedule's occurrence without credits) was never queued.
  if (row.status !== "failed" || row.doneAt !== row.createdAt) events.push({ at: row.createdAt, type: "queued" });
  if (row.status === "failed") {
    const { errorCode, errorMessage } = toMessageResource(row);
    events.push({ at: row.doneAt ?? row.updatedAt, type: "failed", code: errorCode, reason: errorMessage });
  }
  if (row.status === "unknown") events.push({ at: row.updatedAt, type: "answer_unknown", reason: row.statusDetail });
  return events;
}

const ledgerEvent = (acceptedAt: number, { kind, amount, note, createdAt }: LedgerRow): JourneyEvent[] => {
  // The debit is booked by the transaction that accepted the message: it shows at that instant.
  if (kind === "debit") return [{ at: acceptedAt, type: "charged", credits: -amount }];
  if (kind === "refund") return [{ at: createdAt, type: "refunded", credits: amount, reason: note }];
  return [];
};

/**
 * The user's message `messageId` and what happened to it, oldest first; undefined when the user has
 * no such message. Times are UTC epoch ms (the screens show them in the viewer's zone).
 */
export async function getJourney(userId: number, messageId: number): Promise<Journey | undefined> {
  const row = await queries.message.get(messageId, userId);
  if (!row) return undefined;
  const [ledger, attempts, parts, deliveries] = await Promise.all([
    queries.ledger.all(userId, `msg:${messageId}:debit`, `msg:${messageId}:refund`),
    queries.attempts.all(messageId),
    queries.parts.all(messageId),
    queries.deliveries.all(row.createdAt, row.updatedAt, userId, messageId),
  ]);
  const events: JourneyEvent[] = [
    ...messageEvents(row),
    ...ledger.flatMap((entry) => ledgerEvent(row.createdAt, entry)),
    ...attempts.map(({ at, providerIds, ...attempt }): JourneyEvent => ({
      at,
      type: "submit_attempt",
      ...attempt,
      smscMessageIds: providerIds ? providerIds.split(" ") : [],
    })),
    // A part moves past submitted only by a receipt; it keeps the first final one (later ones change nothing).
    ...parts.flatMap(({ part, providerId, status, error, updatedAt }): JourneyEvent[] =>
      status === "submitted"
        ? []
        : [
            {
              at: updatedAt,
              type: "receipt",
              part,
              smscMessageId: providerId,
              stat: STATS[status] ?? "UNKNOWN",
              err: error,
            },
          ],
    ),
    ...deliveries.map(({ at, ...delivery }): JourneyEvent => ({ at, type: "webhook", ...delivery })),
  ];
  events.sort((a, b) => a.at - b.at || ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
  const { id, to, from, body, segments, credits, status, statusDetail } = row;
  return { message: { id, to, from, body, segments, credits, status, statusDetail }, events };
}
