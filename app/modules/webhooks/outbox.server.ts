// The webhook outbox: an event and its deliveries are written in the caller's transaction, so they
// exist exactly when the change that caused them does; the webhooks queue delivers them, and the
// reconciler re-adds what Redis lost (docs/decisions/094-webhook-outbox-and-own-queue.md).
import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import { statement } from "#app/db/statements.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import type { WebhookDeliveryPayload } from "#app/queue/payloads.ts";
import { getQueue, QUEUES } from "#app/queue/queues.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { TEST_EVENT_TYPE, type WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { endpointsWanting } from "#app/modules/webhooks/subscriptions.server.ts";

type Target = { endpointId: number; url: null } | { endpointId: null; url: string };

const insertEvent = statement(
  "insert into webhook_events (id, user_id, type, payload, created_at) values (?, ?, ?, ?, ?)",
);
const insertDelivery = statement(
  `insert into webhook_deliveries (event_id, endpoint_id, url, status, attempts, next_attempt_at, created_at)
   values (?, ?, ?, 'pending', 0, ?, ?)`,
);

// randomBytes is a system call: one for 4,096 random bytes rather than one each (inside the status change's transaction).
let randomPool = Buffer.alloc(0);
let randomUsed = 0;
function randomFraction(): number {
  if (randomUsed === randomPool.length) {
    randomPool = randomBytes(4096);
    randomUsed = 0;
  }
  return randomPool[randomUsed++] / 256;
}
// Time-ordered (a ULID, increasing within a millisecond): an event's index entries are appended, where a
// random id wrote to a random page of two indexes (42 against 16 µs per event and delivery, decision 100).
const nextUlid = monotonicFactory(randomFraction);

/** A new event id (the webhook-id header): `evt_` and a ULID of `now`. */
function newEventId(now: number): string {
  return `evt_${nextUlid(now)}`;
}

export type DeliveryAttempt = WebhookDeliveryPayload["deliveries"][number];

/** The most deliveries one job carries: their claim and their answers are one transaction each. */
export const DELIVERIES_PER_JOB = 25;

/**
 * A job of deliveries to one target; its id names the first delivery's attempt (and how many follow),
 * so a re-added job of an attempt already made does nothing.
 */
export function webhookJob(deliveries: DeliveryAttempt[], delayMs = 0) {
  const data: WebhookDeliveryPayload = { v: 2, deliveries };
  const [first] = deliveries;
  const more = deliveries.length > 1 ? `-n${deliveries.length}` : "";
  return {
    name: "deliver",
    data,
    opts: {
      jobId: `webhook-${first.deliveryId}-${first.attempt}${more}`,
      delay: delayMs,
      removeOnComplete: true,
      removeOnFail: true,
    },
  };
}

// Deliveries written by transactions running now, by target; added to the queue once those have committed.
const written = new Map<string, number[]>();

function enqueueWritten(): void {
  const jobs: ReturnType<typeof webhookJob>[] = [];
  for (const ids of written.values())
    for (let i = 0; i < ids.length; i += DELIVERIES_PER_JOB)
      jobs.push(webhookJob(ids.slice(i, i + DELIVERIES_PER_JOB).map((deliveryId) => ({ deliveryId, attempt: 0 }))));
  written.clear();
  void enqueueAfterCommit(`webhook delivery jobs ${jobs.length}`, () => getQueue(QUEUES.webhooks).addBulk(jobs));
}

function writeEvent(userId: number, type: string, data: unknown, targets: Target[], now: number): string {
  const id = newEventId(now);
  const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
  insertEvent().run(id, userId, type, payload, now);
  for (const target of targets) {
    const deliveryId = Number(insertDelivery().run(id, target.endpointId, target.url, now, now).lastInsertRowid);
    // Transactions here are synchronous: the next turn of the event loop runs after the commit.
    if (written.size === 0) setImmediate(enqueueWritten);
    // One job per target: a slow receiver holds up only its own deliveries.
    const key = target.endpointId === null ? `url ${target.url}` : `endpoint ${target.endpointId}`;
    const ids = written.get(key);
    if (ids) ids.push(deliveryId);
    else written.set(key, [deliveryId]);
  }
  return id;
}

/**
 * Records an event for every enabled endpoint of the account subscribed to `type` (and the message's
 * own statusCallback URL, if given). Call inside the transaction of the change; the event id, or null
 * when nobody wants it.
 */
export function recordEvent(
  userId: number,
  type: WebhookEventType,
  data: unknown,
  options: { callbackUrl?: string | null; now?: number } = {},
): string | null {
  const targets: Target[] = endpointsWanting(userId, type).map((endpointId) => ({ endpointId, url: null }));
  if (options.callbackUrl) targets.push({ endpointId: null, url: options.callbackUrl });
  if (targets.length === 0) return null;
  return writeEvent(userId, type, data, targets, options.now ?? clock.now());
}

/** "Send test event": one event to this endpoint only (its owner checked by the caller). */
export function recordTestEvent(userId: number, endpointId: number): string {
  const data = { endpointId, message: "This is a test event." };
  return writeEvent(userId, TEST_EVENT_TYPE, data, [{ endpointId, url: null }], clock.now());
}

// Past this, a pending delivery without a job in Redis is re-added: longer than one attempt (10 s) can take.
const RECONCILE_GRACE_MS = 30_000;

const selectDue = statement<[number, number, number], { id: number; attempts: number }>(
  `select id, attempts from webhook_deliveries where status = 'pending' and next_attempt_at < ? and id > ?
   order by id limit ?`,
);

/** Re-adds every pending delivery overdue by more than the grace period: SQLite is the record, Redis can be rebuilt. */
export async function reconcileWebhooks(now = clock.now()): Promise<{ enqueued: number }> {
  let after = 0;
  let enqueued = 0;
  for (;;) {
    const batch = selectDue().all(now - RECONCILE_GRACE_MS, after, 500);
    if (batch.length === 0) return { enqueued };
    await getQueue(QUEUES.webhooks).addBulk(
      batch.map((row) => webhookJob([{ deliveryId: row.id, attempt: row.attempts }])),
    );
    enqueued += batch.length;
    after = batch[batch.length - 1].id;
  }
}
