// The webhook outbox: an event and its deliveries are written in the caller's transaction, so they
// exist exactly when the change that caused them does; the webhooks queue delivers them, and the
// reconciler re-adds what Redis lost (docs/decisions/094-webhook-outbox-and-own-queue.md).
import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import { afterCommitBatch } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addWebhookJobs, type WebhookJob } from "#app/queue/jobs/webhooks.server.ts";
import { reconcileOutbox } from "#app/queue/reconcile-outbox.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { TEST_EVENT_TYPE, type WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { endpointsWanting } from "#app/modules/webhooks/subscriptions.server.ts";

type Target = { endpointId: number; url: null } | { endpointId: null; url: string };

type WrittenDelivery = { id: number; endpointId: number | null; url: string | null };

const queries = statements({
  // A batch's events, and their deliveries, are one INSERT each whatever its size: one prepared text
  // taking the rows as one JSON array (PostgreSQL: jsonb_to_recordset($1) in place of jsonb_each).
  insertEvents: sqlText<[number, string]>({
    sqlite: `insert into webhook_events (id, user_id, type, payload, created_at)
   select value ->> '$.id', value ->> '$.userId', value ->> '$.type', value ->> '$.payload', ? from jsonb_each(?)`,
    postgres: `insert into webhook_events (id, user_id, type, payload, created_at)
   select value ->> 'id', (value ->> 'userId')::bigint, value ->> 'type', value ->> 'payload', $1::bigint
   from jsonb_array_elements($2::jsonb)`,
  }),
  // Each row says its own target, so the rows need not come back in the order they went in.
  insertDeliveries: sqlText<[number, number, string], WrittenDelivery>({
    sqlite: `insert into webhook_deliveries (event_id, endpoint_id, url, status, attempts, next_attempt_at, created_at)
   select value ->> '$.eventId', value ->> '$.endpointId', value ->> '$.url', 'pending', 0, ?, ? from jsonb_each(?)
   returning id, endpoint_id as endpointId, url`,
    postgres: `insert into webhook_deliveries (event_id, endpoint_id, url, status, attempts, next_attempt_at, created_at)
   select value ->> 'eventId', (value ->> 'endpointId')::bigint, value ->> 'url', 'pending', 0, $1::bigint, $2::bigint
   from jsonb_array_elements($3::jsonb)
   returning id, endpoint_id as "endpointId", url`,
  }),
  // The reconciler's pages: pending deliveries overdue, by id.
  due: sqlText<[number, number, number], { id: number; attempts: number }>(
    `select id, attempts from webhook_deliveries where status = 'pending' and next_attempt_at < ? and id > ?
   order by id limit ?`,
  ),
});

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

/** The most deliveries one job carries: their claim and their answers are one transaction each. */
const DELIVERIES_PER_JOB = 25;

// The deliveries a transaction wrote: added to the queue once it has committed, in one call.
const enqueueWritten = afterCommitBatch<WrittenDelivery>((deliveries) => {
  // One job per target: a slow receiver holds up only its own deliveries.
  const byTarget = new Map<string, number[]>();
  for (const delivery of deliveries) {
    const key = delivery.endpointId === null ? `url ${delivery.url}` : `endpoint ${delivery.endpointId}`;
    const ids = byTarget.get(key);
    if (ids) ids.push(delivery.id);
    else byTarget.set(key, [delivery.id]);
  }
  const jobs: WebhookJob[] = [];
  for (const ids of byTarget.values())
    for (let i = 0; i < ids.length; i += DELIVERIES_PER_JOB)
      jobs.push({ deliveries: ids.slice(i, i + DELIVERIES_PER_JOB).map((deliveryId) => ({ deliveryId, attempt: 0 })) });
  void enqueueAfterCommit(`webhook delivery jobs ${jobs.length}`, () => addWebhookJobs(jobs));
});

/** An event to record: `callbackUrl` is a message's own statusCallback URL, a target besides the endpoints. */
export type EventToRecord = { userId: number; type: WebhookEventType; data: unknown; callbackUrl?: string | null };

async function writeEvents(events: { userId: number; type: string; data: unknown; targets: Target[] }[], now: number) {
  const timestamp = new Date(now).toISOString();
  const eventRows: { id: string; userId: number; type: string; payload: string }[] = [];
  const deliveryRows: { eventId: string; endpointId: number | null; url: string | null }[] = [];
  const ids = events.map(({ userId, type, data, targets }) => {
    if (targets.length === 0) return null;
    // In the batch's order: a message's later event has the greater id.
    const id = newEventId(now);
    eventRows.push({ id, userId, type, payload: JSON.stringify({ type, timestamp, data }) });
    for (const target of targets) deliveryRows.push({ eventId: id, ...target });
    return id;
  });
  if (eventRows.length === 0) return ids;
  await queries.insertEvents.run(now, JSON.stringify(eventRows));
  enqueueWritten(await queries.insertDeliveries.all(now, now, JSON.stringify(deliveryRows)));
  return ids;
}

/**
 * Records each event for every enabled endpoint of its account subscribed to its type (and its
 * statusCallback URL, if given), all at `now`: one INSERT of events and one of deliveries for the
 * batch. Call inside the transaction of the change; each event's id, or null when nobody wanted it.
 */
export async function recordEvents(events: EventToRecord[], now: number): Promise<(string | null)[]> {
  const withTargets = [];
  for (const { userId, type, data, callbackUrl } of events) {
    const targets: Target[] = (await endpointsWanting(userId, type)).map((endpointId) => ({ endpointId, url: null }));
    if (callbackUrl) targets.push({ endpointId: null, url: callbackUrl });
    withTargets.push({ userId, type, data, targets });
  }
  return await writeEvents(withTargets, now);
}

/** recordEvents for one event (at `now`, or the clock's now). */
export async function recordEvent(
  userId: number,
  type: WebhookEventType,
  data: unknown,
  options: { callbackUrl?: string | null; now?: number } = {},
): Promise<string | null> {
  return (
    await recordEvents([{ userId, type, data, callbackUrl: options.callbackUrl }], options.now ?? clock.now())
  )[0];
}

/** "Send test event": one event to this endpoint only (its owner checked by the caller). */
export async function recordTestEvent(userId: number, endpointId: number): Promise<string> {
  const data = { endpointId, message: "This is a test event." };
  return (
    await writeEvents([{ userId, type: TEST_EVENT_TYPE, data, targets: [{ endpointId, url: null }] }], clock.now())
  )[0]!;
}

// Past this, a pending delivery without a job in Redis is re-added: longer than one attempt (10 s) can take.
const RECONCILE_GRACE_MS = 30_000;

/** Re-adds every pending delivery overdue by more than the grace period: SQLite is the record, Redis can be rebuilt. */
export async function reconcileWebhooks(now = clock.now()): Promise<{ enqueued: number }> {
  return reconcileOutbox(
    (after, limit) => queries.due.all(now - RECONCILE_GRACE_MS, after, limit),
    (rows) => addWebhookJobs(rows.map((row) => ({ deliveries: [{ deliveryId: row.id, attempt: row.attempts }] }))),
  );
}
