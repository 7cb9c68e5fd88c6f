// The webhook events beyond a message's own status: group_send.completed, opt_out.changed from
// keywords, a statusCallback per batch item, and their retention. Delivered by the webhooks worker
// to a real HTTP receiver on loopback that verifies every signature with the standardwebhooks package.
import { WEBHOOK_EVENTS, webhookEventSchema } from "#app/api/webhook-schemas.ts";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { webhookDeliveries, webhookEvents } from "#app/db/schema/webhooks.ts";
import { completeGroupSendIfDone } from "#app/modules/sms/group-send-completion.server.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { applyInboundKeyword } from "#app/modules/inbound/keywords.server.ts";
import { addOptOuts } from "#app/modules/opt-outs/opt-outs.server.ts";
import { purgeOldWebhookEvents } from "#app/modules/webhooks/retention.server.ts";
import { createEndpoint, getCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { seedGroup, messagesOfGroupSend } from "#tests/support/contacts.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";
import { useWebhookGateway } from "#tests/support/webhook-gateway.ts";

// Numbers ending in 9 are not delivered.
const { receiver, customerWithEndpoint } = useWebhookGateway({
  receiptFor: (submit) => (submit.destination.endsWith("9") ? "UNDELIV" : "DELIVRD"),
});

async function eventsOf(userId: number, type: string) {
  return await getDb()
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.userId, userId), eq(webhookEvents.type, type)))
    .all();
}

describe("group_send.completed", () => {
  it("comes once, when every message of the send has a final status, with its counts", async () => {
    const { user } = await customerWithEndpoint(["group_send.completed"], "/group");
    // +12025557007 (delivered), +12025557008 (opted out: skipped), +12025557009 (undelivered).
    const { groupId } = await seedGroup(user.id, 3, 7007);
    await addOptOuts(user.id, ["+12025557008"], "manual");
    const send = await startGroupSend(user.id, groupId, "Group news");
    await runGroupSend(send.id);
    const messages = await messagesOfGroupSend(send.id);
    expect(messages).toHaveLength(2);
    for (const message of messages)
      await waitForStatus(message.id, message.toPhone.endsWith("9") ? "undelivered" : "delivered");
    const got = await waitFor(() =>
      receiver()
        .ofType("group_send.completed")
        .find((r) => r.body.data.id === send.id),
    );
    expect(got.verified).toBe(true);
    expect(got.body.data).toEqual({
      id: send.id,
      groupId,
      total: 3,
      queued: 2,
      skipped: 1,
      sent: 2,
      delivered: 1,
      failed: 1,
      completedAt: expect.any(String),
    });
    // What the OpenAPI document's webhooks section promises.
    const documented = WEBHOOK_EVENTS.find((event) => event.type === "group_send.completed")!;
    expect(() => webhookEventSchema(documented).parse(got.body)).not.toThrow();
    const row = (await getDb().select().from(groupSends).where(eq(groupSends.id, send.id)).get())!;
    expect(row.completedAt?.toISOString()).toBe(got.body.data.completedAt);
    // Asked again (a late duplicate receipt, a re-run fan-out): nothing more.
    await withTx(async () => await completeGroupSendIfDone(send.id, Date.now()));
    await runGroupSend(send.id);
    expect(await eventsOf(user.id, "group_send.completed")).toHaveLength(1);
  });

  it("comes when the fan-out ends with nothing to send (every member skipped)", async () => {
    const { user } = await customerWithEndpoint(["group_send.completed"], "/group-skipped");
    const { groupId } = await seedGroup(user.id, 2, 7100);
    const send = await startGroupSend(user.id, groupId, "Nobody gets this");
    await addOptOuts(user.id, ["+12025557100", "+12025557101"], "manual");
    await runGroupSend(send.id);
    const got = await waitFor(() =>
      receiver()
        .ofType("group_send.completed")
        .find((r) => r.body.data.id === send.id),
    );
    expect(got.body.data).toMatchObject({ total: 2, queued: 0, skipped: 2, sent: 0, delivered: 0, failed: 0 });
    expect(await eventsOf(user.id, "group_send.completed")).toHaveLength(1);
  });

  it("is not recorded for an account without an endpoint for it, but the send is still marked complete", async () => {
    const { user } = await customerWithEndpoint(["message.delivered"], "/group-other");
    const { groupId } = await seedGroup(user.id, 1, 7200);
    const send = await startGroupSend(user.id, groupId, "Quiet");
    await runGroupSend(send.id);
    const [message] = await messagesOfGroupSend(send.id);
    await waitForStatus(message.id, "delivered");
    await waitFor(
      async () => (await getDb().select().from(groupSends).where(eq(groupSends.id, send.id)).get())?.completedAt,
    );
    expect(await eventsOf(user.id, "group_send.completed")).toEqual([]);
  });
});

describe("opt_out.changed from keywords", () => {
  let received = 1_900_000_000_000;
  const keyword = (phone: string, body: string, accountId: number | null) => ({
    phone,
    toAddress: "SMSGateway",
    accountId,
    body,
    receivedAt: received++,
  });
  const changesOf = (phone: string) =>
    receiver()
      .ofType("opt_out.changed")
      .filter((r) => r.body.data.phone === phone);

  it("tells STOP and START to the shared sender to the account each was assigned to, and START also to the one told of the STOP", async () => {
    const first = await customerWithEndpoint(["opt_out.changed"], "/keyword-first");
    const second = await createTestUser();
    const { secret } = await createEndpoint(second.id, {
      url: receiver().url("/keyword-second"),
      events: ["opt_out.changed"],
      enabled: true,
    });
    receiver().secret = first.secret;
    const phone = "+12025557301";
    await applyInboundKeyword(keyword(phone.slice(1), "STOP", first.user.id));
    const stop = await waitFor(() => changesOf(phone).find((r) => r.body.data.optedOut === true));
    expect(stop.verified).toBe(true);
    expect(stop.body.data).toMatchObject({
      phone,
      sender: "SMSGateway",
      optedOut: true,
      source: "keyword",
      keyword: "STOP",
    });
    // The START comes back assigned to another account (it sent to the phone since): both hear it.
    receiver().secret = secret;
    await applyInboundKeyword(keyword(phone.slice(1), "start", second.id));
    const starts = await waitFor(() => {
      const found = changesOf(phone).filter((r) => r.body.data.optedOut === false);
      return found.length === 2 ? found : undefined;
    });
    // The receiver checks one secret: the second account's delivery verifies, and both say the same.
    expect(starts.filter((r) => r.verified)).toHaveLength(1);
    expect(starts[0].body.data).toEqual(starts[1].body.data);
    expect(starts[0].body.data).toMatchObject({ optedOut: false, keyword: "START", sender: "SMSGateway" });
    expect(await eventsOf(first.user.id, "opt_out.changed")).toHaveLength(2);
    expect(await eventsOf(second.id, "opt_out.changed")).toHaveLength(1);
    // A second START changes nothing and says nothing.
    await applyInboundKeyword(keyword(phone.slice(1), "START", second.id));
    expect(await eventsOf(second.id, "opt_out.changed")).toHaveLength(1);
  });
});

describe("statusCallback on POST /api/v1/messages/batch", () => {
  it("sends each item's message events to that item's own URL", async () => {
    const customer = await apiCustomer(10);
    const sent = await callApi("POST", "/api/v1/messages/batch", {
      key: customer.key,
      json: {
        body: "Batch with callbacks",
        messages: [
          { to: "+12025557401", statusCallback: receiver().url("/batch-a") },
          { to: "+12025557402" },
          { to: "+12025557409", statusCallback: receiver().url("/batch-b") },
        ],
      },
    });
    expect(sent.status).toBe(200);
    expect(sent.json.queued).toBe(3);
    const [first, second, third] = sent.json.results.map((r: { message: { id: number } }) => r.message.id);
    receiver().secret = await getCallbackSecret(customer.id);
    const delivered = await waitFor(() =>
      receiver()
        .ofType("message.delivered")
        .find((r) => r.body.data.id === first),
    );
    expect(delivered.verified).toBe(true);
    const failed = await waitFor(() =>
      receiver()
        .ofType("message.failed")
        .find((r) => r.body.data.id === third),
    );
    expect(failed.body.data).toMatchObject({ status: "undelivered", to: "+12025557409" });
    await waitForStatus(second, "delivered");
    // The item without a URL (and an account without endpoints): nothing.
    expect(receiver().received.some((r) => r.body.data.id === second)).toBe(false);
  });

  it("refuses a batch with a refused URL as a 422 naming every such item, sending nothing", async () => {
    const customer = await apiCustomer(10);
    const refused = await callApi("POST", "/api/v1/messages/batch", {
      key: customer.key,
      json: {
        body: "Never sent",
        messages: [
          { to: "+12025557411", statusCallback: "ftp://example.com/x" },
          { to: "+12025557412", statusCallback: receiver().url("/batch-c") },
          { to: "+12025557413", statusCallback: "ftp://example.com/x" },
        ],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: "validation_failed", field: "messages.0.statusCallback" });
    expect(refused.json.error.errors.map((e: { field: string }) => e.field)).toEqual([
      "messages.0.statusCallback",
      "messages.2.statusCallback",
    ]);
    const listed = await callApi("GET", "/api/v1/messages", { key: customer.key });
    expect(listed.json.data).toEqual([]);
  });
});

describe("retention of webhook events", () => {
  it("deletes events (and their deliveries) older than the cutoff, never one still retrying", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/retention");
    const day = 86_400_000;
    const now = Date.now();
    const ids = ["evt_retention_old", "evt_retention_retrying", "evt_retention_recent"];
    const ages = [40 * day, 40 * day, 2 * day];
    const statuses = ["delivered", "pending", "delivered"] as const;
    await withTx(async (tx) => {
      for (const [i, id] of ids.entries()) {
        const at = new Date(now - ages[i]);
        await tx
          .insert(webhookEvents)
          .values({ id, userId: user.id, type: "message.delivered", payload: "{}", createdAt: at })
          .run();
        await tx
          .insert(webhookDeliveries)
          .values({
            eventId: id,
            endpointId: endpoint.id,
            status: statuses[i],
            nextAttemptAt: new Date(now + day),
            createdAt: at,
          })
          .run();
      }
    });
    // Batches of one: the walk goes on past a full batch.
    expect(await purgeOldWebhookEvents(now - 30 * day, 1)).toBeGreaterThanOrEqual(1);
    const left = async (table: typeof webhookEvents | typeof webhookDeliveries) =>
      (await getDb().select().from(table).all())
        .map((row) => ("eventId" in row ? row.eventId : row.id))
        .filter((id) => ids.includes(id));
    expect((await left(webhookEvents)).sort()).toEqual(["evt_retention_recent", "evt_retention_retrying"]);
    expect((await left(webhookDeliveries)).sort()).toEqual(["evt_retention_recent", "evt_retention_retrying"]);
  });
});
