// The fault run's webhooks: one customer's endpoint for the message.* events on a loopback receiver
// that verifies every delivery with `standardwebhooks`, fails some first attempts and holds others,
// so retries and deliveries in flight meet the kills; afterwards, what it got against the messages.
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import type { Findings, Rows } from "#tests/faults/checks.ts";
import { type Reply, WebhookReceiver } from "#tests/support/webhook-receiver.ts";

const EVENTS = ["message.sent", "message.delivered", "message.failed"] as const;
const CARRIER_OR_SEND_FAILURES = new Set(["undelivered", "expired", "rejected", "failed"]);
/** How long a held answer keeps its delivery open, so a kill finds deliveries in flight. */
const HOLD_MS = 300;

/** One request the receiver got, as the check needs it. */
type Delivery = { id: string; type: string; messageId: unknown; status: unknown; payload: string; verified: boolean };

/** A stable share (0-99) of a webhook-id: an event's fate is the same on every attempt. */
function share(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % 100;
}

/** 10 % of events answered 500 once, 3 % three times (as the test), 5 % dropped once, 20 % held once. */
function replyTo(id: string, nth: number): Reply | "hold" {
  const s = share(id);
  const refusals = s < 10 ? 1 : s < 13 ? 3 : 0;
  if (nth <= refusals) return { status: 500, body: `fault run: attempt ${nth} refused` };
  if (nth === 1 && s >= 13 && s < 18) return { drop: true };
  if (nth === 1 && s >= 18 && s < 38) return "hold";
  return { status: 200, body: "ok" };
}

export class FaultWebhooks {
  readonly deliveries: Delivery[] = [];
  /** Deliveries held open by the receiver right now. */
  holding = 0;
  /** Requests answered with a failure (500 or a dropped connection). */
  refused = 0;
  /** Requests after a refusal of the same event (the gateway's retries). */
  retries = 0;
  /** Requests for an event already answered 200 (the answer was lost with a killed worker). */
  duplicates = 0;
  private readonly acknowledged = new Set<string>();
  /** At each worker kill: the deliveries open, and the requests received until then. */
  readonly atKills: { open: number; received: number }[] = [];

  readonly receiver: WebhookReceiver;
  readonly userId: number;
  readonly endpointId: number;

  private constructor(receiver: WebhookReceiver, userId: number, endpointId: number) {
    this.receiver = receiver;
    this.userId = userId;
    this.endpointId = endpointId;
    receiver.answer = async (received, nth) => {
      this.deliveries.push({
        id: received.id,
        type: received.body.type,
        messageId: received.body.data?.id,
        status: received.body.data?.status,
        payload: JSON.stringify(received.body),
        verified: received.verified,
      });
      if (this.acknowledged.has(received.id)) this.duplicates += 1;
      else if (nth > 1) this.retries += 1;
      const reply = replyTo(received.id, nth);
      if (reply === "hold" || ("status" in reply && reply.status < 300)) this.acknowledged.add(received.id);
      if (reply !== "hold") {
        if ("drop" in reply || reply.status >= 300) this.refused += 1;
        return reply;
      }
      this.holding += 1;
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      this.holding -= 1;
      return { status: 200, body: "ok" };
    };
  }

  /** Notes, right before a kill, what is open and what has come. */
  noteKill(): void {
    this.atKills.push({ open: this.holding, received: this.deliveries.length });
  }

  /** Before the app starts: the endpoint (WEBHOOK_ALLOW_PRIVATE=1 lets it be loopback http). */
  static async start(userId: number): Promise<FaultWebhooks> {
    const receiver = await WebhookReceiver.start();
    const { endpoint, secret } = await createEndpoint(userId, {
      url: receiver.url("/faults"),
      events: [...EVENTS],
      enabled: true,
    });
    receiver.secret = secret;
    return new FaultWebhooks(receiver, userId, endpoint!.id);
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }
}

/** Deliveries of the endpoint not yet done (the settle step waits for none). */
export async function pendingDeliveries(db: Rows, endpointId: number): Promise<number> {
  const [{ n }] = await db<{ n: number }>(
    "select count(*) as n from webhook_deliveries where endpoint_id = ? and status = 'pending'",
    endpointId,
  );
  return n;
}

/**
 * Every status change of the customer's messages that has an event (submitted: message.sent;
 * delivered: message.delivered; undelivered, expired, rejected, failed: message.failed) reached the
 * receiver at least once, signed; no event for a status the message never had, none twice under two
 * ids, and one payload per webhook-id.
 */
export async function checkWebhooks(db: Rows, hooks: FaultWebhooks, findings: Findings): Promise<void> {
  const messages = await db<{ id: number; status: string; submittedAt: unknown }>(
    'select id, status, submitted_at as "submittedAt" from sms_messages where user_id = ?',
    hooks.userId,
  );
  // What happened, by message and event: the status the event's message must show.
  const expected = new Map<string, string>();
  for (const m of messages) {
    if (m.submittedAt !== null) expected.set(`${m.id}|message.sent`, "submitted");
    if (m.status === "delivered") expected.set(`${m.id}|message.delivered`, "delivered");
    if (CARRIER_OR_SEND_FAILURES.has(m.status)) expected.set(`${m.id}|message.failed`, m.status);
  }

  const events = new Map<string, { delivery: Delivery; requests: number; verified: boolean }>();
  let unverified = 0;
  for (const d of hooks.deliveries) {
    if (!d.verified) {
      unverified += 1;
      findings.fail("webhooks", "a delivery whose signature does not verify", `${d.id} (${d.type})`);
    }
    const seen = events.get(d.id);
    if (!seen) {
      events.set(d.id, { delivery: d, requests: 1, verified: d.verified });
      continue;
    }
    seen.requests += 1;
    seen.verified ||= d.verified;
    if (seen.delivery.payload !== d.payload)
      findings.fail(
        "webhooks",
        "one webhook-id carried two payloads",
        `${d.id}: ${seen.delivery.payload} / ${d.payload}`,
      );
  }

  const eventOf = new Map<string, string>();
  for (const [id, { delivery: d, verified }] of events) {
    const key = `${d.messageId}|${d.type}`;
    const status = expected.get(key);
    if (status === undefined) {
      findings.fail(
        "webhooks",
        "an event for a status change that did not happen",
        `${id}: ${d.type} for message ${d.messageId} (${d.status})`,
      );
      continue;
    }
    if (d.status !== status)
      findings.fail("webhooks", "an event showing another status", `${id}: ${d.type} says ${d.status}, not ${status}`);
    if (!verified) continue;
    const other = eventOf.get(key);
    if (other) findings.fail("webhooks", "one status change sent as two events", `${key}: ${other} and ${id}`);
    eventOf.set(key, id);
  }
  for (const key of expected.keys())
    if (!eventOf.has(key)) findings.fail("webhooks", "a status change whose event never arrived signed", key);

  if (hooks.atKills.length > 0 && hooks.atKills.every(({ open }) => open === 0))
    findings.fail("webhooks", "no worker kill came while a delivery was open", JSON.stringify(hooks.atKills));

  const notDelivered = await db<{ status: string; n: number }>(
    "select status, count(*) as n from webhook_deliveries where endpoint_id = ? and status != 'delivered' group by status",
    hooks.endpointId,
  );
  for (const { status, n } of notDelivered)
    findings.fail(status === "pending" ? "settled" : "webhooks", `webhook deliveries left ${status}`, `${n}`);

  const requests = hooks.deliveries.length;
  const byType: Record<string, number> = {};
  for (const { delivery } of events.values()) byType[delivery.type] = (byType[delivery.type] ?? 0) + 1;
  findings.stats.webhooks = {
    expectedEvents: expected.size,
    events: events.size,
    byType,
    requests,
    refusedAnswers: hooks.refused,
    retries: hooks.retries,
    duplicates: hooks.duplicates,
    eventsReceivedMoreThanOnce: [...events.values()].filter((e) => e.requests > 1).length,
    unverified,
    atKills: hooks.atKills,
  };
}
