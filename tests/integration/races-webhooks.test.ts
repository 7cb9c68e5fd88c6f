// Webhook attempts of one endpoint run by many jobs at once, as after a restart of PostgreSQL or
// Redis when the reconciler re-adds every pending delivery: each job's claim and record transactions
// write only guarded updates (a delivery still pending at the attempts read; an endpoint's
// failing_since if clear), so on PostgreSQL they run READ COMMITTED and wait on the endpoint's row in
// turn instead of refusing each other (decision 131). No worker runs here: the test is the worker.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { webhookDeliveries, webhookEndpoints } from "#app/db/schema/webhooks.ts";
import { deliverWebhooks } from "#app/modules/webhooks/deliver.server.ts";
import { recordTestEvent } from "#app/modules/webhooks/outbox.server.ts";
import { workCounters } from "#app/utils/work-counts.server.ts";
import { customerWithEndpoint, WebhookReceiver } from "#tests/support/webhook-receiver.ts";

// Read at the first getEnv(): the receiver is on loopback. Enough connections for every job at once.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";
process.env.DATABASE_POOL_SIZE = "30";

const JOBS = 40;

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => await receiver.stop());

/** An endpoint at the receiver's `path` with JOBS pending test deliveries, their ids. */
async function endpointWithDeliveries(path: string) {
  const { user, endpoint } = await customerWithEndpoint(receiver, ["message.delivered"], `/${path}`);
  for (let i = 0; i < JOBS; i++) await withTx(async () => await recordTestEvent(user.id, endpoint.id));
  const rows = await getDb()
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpoint.id))
    .all();
  return { endpointId: endpoint.id, ids: rows.map((row) => row.id) };
}

/**
 * An endpoint at `path` answering `status`, and every delivery's first attempt to it, one job each,
 * all at once; how many transactions ran again meanwhile, and each delivery's status and attempts.
 */
async function fortyJobsAtOnce(path: string, status: number) {
  receiver.answer = () => ({ status, body: status === 200 ? "ok" : "down" });
  const { endpointId, ids } = await endpointWithDeliveries(path);
  const retriesBefore = workCounters().busyRetries;
  const results = await Promise.all(ids.map((deliveryId) => deliverWebhooks([{ deliveryId, attempt: 0 }])));
  const retries = workCounters().busyRetries - retriesBefore;
  return { endpointId, results, retries, statuses: await statusesOf(endpointId) };
}

const statusesOf = async (endpointId: number) =>
  (
    await getDb()
      .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .all()
  ).map((row) => `${row.status} ${row.attempts}`);

describe("forty webhook jobs of one endpoint at once", () => {
  it("an answering endpoint: every delivery delivered once, and no transaction refused for overlapping another", async () => {
    const { endpointId, results, retries, statuses } = await fortyJobsAtOnce("answering", 200);
    expect(results.every((result) => result.delivered === 1)).toBe(true);
    expect(statuses).toEqual(results.map(() => "delivered 1"));
    expect(receiver.received.filter((r) => r.body.data.endpointId === endpointId)).toHaveLength(JOBS);
    expect(retries).toBe(0);
  });

  it("a failing endpoint (each job marks it failing): every delivery left to retry once, the endpoint failing since the first answer, no transaction refused", async () => {
    const { endpointId, results, retries, statuses } = await fortyJobsAtOnce("failing", 500);
    expect(results.every((result) => result.retrying === 1)).toBe(true);
    expect(statuses).toEqual(results.map(() => "pending 1"));
    const [endpoint] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).all();
    expect(endpoint.failingSince).not.toBeNull();
    expect(endpoint.enabled).toBe(true);
    expect(retries).toBe(0);
  });
});
