// An endpoint's delivery log and "Redeliver", for its owner only.
import { and, desc, eq, lt } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "#app/db/schema/webhooks.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addWebhookJob } from "#app/queue/jobs/webhooks.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { getEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import {
  WebhookEndpointOffError,
  WebhookManualSendsLimitError,
  WebhookNotFoundError,
} from "#app/modules/webhooks/errors.ts";
import { recordTestEvent } from "#app/modules/webhooks/outbox.server.ts";

const DELIVERIES_PAGE_SIZE = 50;

const columns = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  type: webhookEvents.type,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastDurationMs: webhookDeliveries.lastDurationMs,
  lastAnswer: webhookDeliveries.lastAnswer,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  deliveredAt: webhookDeliveries.deliveredAt,
  createdAt: webhookEvents.createdAt,
};

export type WebhookDelivery = {
  id: number;
  eventId: string;
  type: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastAnswer: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  createdAt: Date;
};

/** Newest first, a page at a time: deliveries with an id below `before`. Another account's endpoint: WebhookNotFoundError. */
export async function listDeliveries(
  userId: number,
  endpointId: number,
  options: { before?: number; limit?: number } = {},
): Promise<WebhookDelivery[]> {
  await getEndpoint(userId, endpointId);
  const rows = await getDb()
    .select(columns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        options.before === undefined ? undefined : lt(webhookDeliveries.id, options.before),
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(options.limit ?? DELIVERIES_PAGE_SIZE)
    .all();
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

/** One delivery of one of the account's endpoints, or WebhookNotFoundError. */
async function getDelivery(userId: number, endpointId: number, deliveryId: number): Promise<WebhookDelivery> {
  const row = await getDb()
    .select(columns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookEndpoints.userId, userId),
      ),
    )
    .get();
  if (!row) throw new WebhookNotFoundError("webhook delivery");
  return { ...row, createdAt: new Date(row.createdAt) };
}

// Each test event and redelivery starts a retry series of its own, so they are few per endpoint.
const manualSends = (): Limit => ({
  name: "webhook-manual",
  limit: getEnv().WEBHOOK_MANUAL_SENDS_PER_MINUTE,
  windowMs: 60_000,
});

/** Refuses a turned-off endpoint (WebhookEndpointOffError), then counts the send (WebhookManualSendsLimitError past the limit). */
async function countManualSend(userId: number, endpointId: number): Promise<void> {
  if (!(await getEndpoint(userId, endpointId)).enabled) throw new WebhookEndpointOffError();
  const limit = manualSends();
  const state = await hit(limit, String(endpointId));
  if (!state.allowed) throw new WebhookManualSendsLimitError(limit.limit, state.retryAfterSeconds);
}

/**
 * Sends a delivery again now, with the same event id and body (signed with the endpoint's current
 * secret); a new retry series starts, as long as WEBHOOK_RETRY_HOURS. Refused for a turned-off
 * endpoint, and past WEBHOOK_MANUAL_SENDS_PER_MINUTE (test events included).
 */
export async function redeliver(userId: number, endpointId: number, deliveryId: number): Promise<WebhookDelivery> {
  const before = await getDelivery(userId, endpointId, deliveryId);
  await countManualSend(userId, endpointId);
  const now = clock.date();
  await withTx((tx) =>
    tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: now, createdAt: now, deliveredAt: null })
      .where(eq(webhookDeliveries.id, deliveryId))
      .run(),
  );
  await enqueueAfterCommit(`webhook delivery ${deliveryId}`, () =>
    addWebhookJob({ deliveries: [{ deliveryId, attempt: before.attempts }] }),
  );
  return await getDelivery(userId, endpointId, deliveryId);
}

/** "Send test event" to one of the account's endpoints that is on, within WEBHOOK_MANUAL_SENDS_PER_MINUTE; the event id. */
export async function sendTestEvent(userId: number, endpointId: number): Promise<string> {
  await countManualSend(userId, endpointId);
  return await withTx(() => recordTestEvent(userId, endpointId));
}
