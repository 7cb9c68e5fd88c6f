// Webhooks end to end: events written with the status change, delivered by the webhooks worker to a
// real HTTP receiver on loopback that verifies every signature with the standardwebhooks package.
import { WEBHOOK_EVENTS, webhookEventSchema } from "#app/api/webhook-schemas.ts";
import { toMessageResource } from "#app/modules/sms/message-resource.ts";
import { findOwnMessage } from "#app/modules/sms/own-messages.server.ts";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "#app/db/schema/webhooks.ts";
import { recordTestEvent } from "#app/modules/webhooks/outbox.server.ts";
import { users } from "#app/db/schema/core.ts";
import { simulateInbound } from "#app/modules/inbound/simulate.server.ts";
import { assignInbound, listUnassignedInbound } from "#app/modules/inbound/inbox.server.ts";
import { addOptOuts, listOptOuts, removeOptOut } from "#app/modules/opt-outs/opt-outs.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import {
  deleteEndpoint,
  getCallbackSecret,
  getEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
} from "#app/modules/webhooks/endpoints.server.ts";
import { postWebhook } from "#app/modules/webhooks/deliver.server.ts";
import { listDeliveries, redeliver, sendTestEvent } from "#app/modules/webhooks/deliveries.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { action as endpointPageAction } from "#app/routes/sms/webhook-deliveries.tsx";
import { grantCredits, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";
import { useWebhookGateway } from "#tests/support/webhook-gateway.ts";

const { receiver, customerWithEndpoint } = useWebhookGateway();

describe("webhook deliveries", () => {
  it("delivers message.sent and message.delivered after the SMSC's receipt, signed and with the message's status", async () => {
    const { user } = await customerWithEndpoint(["message.sent", "message.delivered"], "/a");
    const { id } = await queueMessage(user.id, { to: "+12025550111", body: "Hello hooks" });
    await waitForStatus(id, "delivered");
    const delivered = await waitFor(() =>
      receiver()
        .ofType("message.delivered")
        .find((r) => r.body.data.id === id),
    );
    expect(delivered.verified).toBe(true);
    // A ULID: events of later changes have greater ids (appended to the indexes, decision 100).
    expect(delivered.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(delivered.headers["user-agent"]).toBe("smsgw-webhooks/1");
    expect(delivered.body.data).toMatchObject({
      id,
      direction: "outbound",
      to: "+12025550111",
      status: "delivered",
      body: "Hello hooks",
      errorCode: null,
    });
    expect(typeof delivered.body.data.updatedAt).toBe("string");
    // What the OpenAPI document's webhooks section promises, and what GET /api/v1/messages/{id} answers.
    const documented = WEBHOOK_EVENTS.find((event) => event.type === "message.delivered")!;
    expect(() => webhookEventSchema(documented).parse(delivered.body)).not.toThrow();
    expect(delivered.body.data).toEqual(toMessageResource((await findOwnMessage(user.id, id))!));
    const sent = await waitFor(() =>
      receiver()
        .ofType("message.sent")
        .find((r) => r.body.data.id === id),
    );
    expect(sent.verified).toBe(true);
    expect(sent.id < delivered.id).toBe(true);
  });

  it("sends nothing for events the endpoint did not subscribe to, nor for an account without endpoints", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.failed"], "/b");
    const other = await createTestUser();
    await grantCredits(other.id, 5);
    const mine = await queueMessage(user.id, { to: "+12025550112", body: "Not failing" });
    const theirs = await queueMessage(other.id, { to: "+12025550113", body: "No endpoint" });
    await waitForStatus(mine.id, "delivered");
    await waitForStatus(theirs.id, "delivered");
    const ids = [mine.id, theirs.id];
    expect(receiver().received.filter((r) => ids.includes(r.body.data.id as number))).toEqual([]);
    expect(await listDeliveries(user.id, endpoint.id)).toEqual([]);
  });

  it("retries a receiver that answers 500 three times: the fourth try gets it, with the same webhook-id", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/c");
    receiver().answer = (delivery, nth) =>
      delivery.body.type === "webhook.test" && nth <= 3 ? { status: 500, body: "x".repeat(5000) } : { status: 200 };
    const eventId = await sendTestEvent(user.id, endpoint.id);
    const [delivery] = await waitFor(async () => {
      const rows = await listDeliveries(user.id, endpoint.id);
      return rows[0]?.status === "delivered" ? rows : undefined;
    });
    const tries = receiver().received.filter((r) => r.id === eventId);
    expect(tries).toHaveLength(4);
    expect(tries.every((t) => t.verified)).toBe(true);
    expect(new Set(tries.map((t) => t.headers["webhook-id"]))).toEqual(new Set([eventId]));
    expect(delivery).toMatchObject({ eventId, type: "webhook.test", attempts: 4, lastStatusCode: 200 });
    expect(tries[0].body.data).toEqual({ endpointId: endpoint.id, message: "This is a test event." });
    receiver().answer = () => ({ status: 200 });
  });

  it("does not follow a redirect (a failure, retried); Redeliver sends it again", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/d");
    receiver().answer = (delivery) =>
      delivery.body.type === "webhook.test"
        ? { status: 302, headers: { location: "http://example.com/" } }
        : { status: 200 };
    await sendTestEvent(user.id, endpoint.id);
    const [retrying] = await waitFor(async () => {
      const rows = await listDeliveries(user.id, endpoint.id);
      return rows[0]?.attempts >= 1 && rows[0].lastStatusCode === 302 ? rows : undefined;
    });
    expect(retrying.lastAnswer).toBe("Redirect to http://example.com/ not followed");
    receiver().answer = () => ({ status: 200 });
    await redeliver(user.id, endpoint.id, retrying.id);
    await waitFor(async () => (await listDeliveries(user.id, endpoint.id))[0]?.status === "delivered");
  });

  it("keeps at most 1 KB of an answer", async () => {
    receiver().answer = () => ({ status: 500, body: "x".repeat(5000) });
    const answer = await postWebhook(receiver().url("/f"), "{}", {});
    expect(answer).toMatchObject({ ok: false, statusCode: 500 });
    expect(answer.answer).toHaveLength(1024);
    receiver().answer = () => ({ status: 200 });
  });

  it("gives up on a receiver that does not answer in time, and on one that hangs up", async () => {
    receiver().answer = () => new Promise(() => {});
    const slow = await postWebhook(receiver().url("/slow"), "{}", {}, 300);
    expect(slow).toMatchObject({ ok: false, statusCode: null, answer: "No answer within 0.3 s" });
    expect(slow.durationMs).toBeGreaterThanOrEqual(300);
    receiver().answer = () => ({ drop: true });
    const dropped = await postWebhook(receiver().url("/drop"), "{}", {});
    expect(dropped).toMatchObject({ ok: false, statusCode: null });
    expect(dropped.answer).toMatch(/^Not delivered: /);
    receiver().answer = () => ({ status: 200 });
  });

  it("signs with the new secret after a rotation, and stops at a deleted endpoint", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/e");
    const { secret } = await rotateEndpointSecret(user.id, endpoint.id);
    receiver().secret = secret;
    const eventId = await sendTestEvent(user.id, endpoint.id);
    const got = await waitFor(() => receiver().received.find((r) => r.id === eventId));
    expect(got.verified).toBe(true);
    await deleteEndpoint(user.id, endpoint.id);
    await expect(listDeliveries(user.id, endpoint.id)).rejects.toThrow(/No such webhook endpoint/);
  });
});

describe("webhooks on the REST API", () => {
  it("adds, lists, changes, tests, redelivers, rotates and deletes an endpoint", async () => {
    const customer = await apiCustomer(10);
    const created = await callApi("POST", "/api/v1/webhooks", {
      key: customer.key,
      json: { url: receiver().url("/api"), events: ["message.delivered", "message.delivered"] },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ url: receiver().url("/api"), events: ["message.delivered"], enabled: true });
    expect(created.json.secret).toMatch(/^whsec_/);
    receiver().secret = created.json.secret;
    const id = created.json.id as number;
    const listed = await callApi("GET", "/api/v1/webhooks", { key: customer.key });
    expect(listed.json.data).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    const patched = await callApi("PATCH", `/api/v1/webhooks/${id}`, {
      key: customer.key,
      json: { events: ["message.failed", "balance.low"] },
    });
    expect(patched.json.events).toEqual(["message.failed", "balance.low"]);
    const tested = await callApi("POST", `/api/v1/webhooks/${id}/test`, { key: customer.key });
    expect(tested.status).toBe(202);
    const got = await waitFor(() => receiver().received.find((r) => r.id === tested.json.eventId));
    expect(got.verified).toBe(true);
    const log = await waitFor(async () => {
      const answer = await callApi("GET", `/api/v1/webhooks/${id}/deliveries`, { key: customer.key });
      return answer.json.data[0]?.status === "delivered" ? answer.json : undefined;
    });
    expect(log.data[0]).toMatchObject({ eventId: tested.json.eventId, type: "webhook.test", lastStatusCode: 200 });
    const rotated = await callApi("POST", `/api/v1/webhooks/${id}/rotate-secret`, { key: customer.key });
    receiver().secret = rotated.json.secret;
    const again = await callApi("POST", `/api/v1/webhooks/${id}/deliveries/${log.data[0].id}/redeliver`, {
      key: customer.key,
    });
    expect(again.status).toBe(202);
    await waitFor(() => receiver().received.filter((r) => r.id === tested.json.eventId).length === 2);
    expect(
      receiver()
        .received.filter((r) => r.id === tested.json.eventId)
        .every((r) => r.verified),
    ).toBe(true);
    expect((await callApi("DELETE", `/api/v1/webhooks/${id}`, { key: customer.key })).status).toBe(200);
    expect((await callApi("GET", `/api/v1/webhooks/${id}`, { key: customer.key })).status).toBe(404);
  });

  it("takes at most WEBHOOK_MANUAL_SENDS_PER_MINUTE test events and redeliveries a minute per endpoint (429 with Retry-After), and none for a turned-off endpoint", async () => {
    const customer = await apiCustomer(0);
    const post = (path: string, json?: unknown) => callApi("POST", path, { key: customer.key, json });
    const add = async (path: string) =>
      (await post("/api/v1/webhooks", { url: receiver().url(path), events: ["message.delivered"] })).json.id as number;
    const [busy, quiet] = [await add("/manual-busy"), await add("/manual-quiet")];
    for (let i = 0; i < getEnv().WEBHOOK_MANUAL_SENDS_PER_MINUTE; i++)
      expect((await post(`/api/v1/webhooks/${busy}/test`)).status).toBe(202);
    const [first] = await listDeliveries(customer.id, busy);
    for (const refused of [
      await post(`/api/v1/webhooks/${busy}/test`),
      await post(`/api/v1/webhooks/${busy}/deliveries/${first.id}/redeliver`),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe("rate_limited");
      expect(refused.json.error.message).toMatch(
        /^At most 5 test events and redeliveries a minute per endpoint: please try again in \d+ seconds?$/,
      );
      expect(Number(refused.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers["Retry-After"])).toBeLessThanOrEqual(60);
    }
    expect(await listDeliveries(customer.id, busy)).toHaveLength(getEnv().WEBHOOK_MANUAL_SENDS_PER_MINUTE);

    // Another endpoint has its own count; turned off, it takes neither.
    const tested = await post(`/api/v1/webhooks/${quiet}/test`);
    expect(tested.status).toBe(202);
    const [delivery] = await waitFor(async () => {
      const rows = await listDeliveries(customer.id, quiet);
      return rows[0]?.status === "delivered" ? rows : undefined;
    });
    await callApi("PATCH", `/api/v1/webhooks/${quiet}`, { key: customer.key, json: { enabled: false } });
    for (const refused of [
      await post(`/api/v1/webhooks/${quiet}/test`),
      await post(`/api/v1/webhooks/${quiet}/deliveries/${delivery.id}/redeliver`),
    ]) {
      expect(refused.status).toBe(409);
      expect(refused.json.error).toEqual({
        code: "endpoint_disabled",
        message: "This endpoint is turned off: turn it on before sending it a test event or a redelivery",
      });
    }
    expect(await listDeliveries(customer.id, quiet)).toEqual([
      expect.objectContaining({ id: delivery.id, attempts: 1 }),
    ]);
  });

  it("the endpoint's screen says in place why a test event or a redelivery was refused, and sends nothing", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/manual-page");
    const post = (form: Record<string, string>) =>
      call(endpointPageAction, makeRequest(`/sms/webhooks/${endpoint.id}`, { user, form }), {
        id: String(endpoint.id),
      });
    for (let i = 0; i < getEnv().WEBHOOK_MANUAL_SENDS_PER_MINUTE; i++)
      expect(locationOf(await post({ intent: "test" }))).toBe(`/sms/webhooks/${endpoint.id}`);
    const limited = await post({ intent: "test" });
    expect(statusOf(limited)).toBe(429);
    expect(dataOf(limited)).toEqual({
      intent: "test",
      error: expect.stringMatching(
        /^At most 5 test events and redeliveries a minute per endpoint: please try again in/,
      ),
    });
    await updateEndpoint(user.id, endpoint.id, { enabled: false });
    const [delivery] = await listDeliveries(user.id, endpoint.id);
    const off = await post({ intent: "redeliver", deliveryId: String(delivery.id) });
    expect(statusOf(off)).toBe(409);
    expect(dataOf(off)).toEqual({
      intent: "redeliver",
      error: "This endpoint is turned off: turn it on before sending it a test event or a redelivery",
    });
    expect(await listDeliveries(user.id, endpoint.id)).toHaveLength(getEnv().WEBHOOK_MANUAL_SENDS_PER_MINUTE);
  });

  it("refuses a private address with a 422 naming the field", async () => {
    const customer = await apiCustomer(0);
    const refused = await callApi("POST", "/api/v1/webhooks", {
      key: customer.key,
      json: { url: "ftp://example.com/x", events: ["message.sent"] },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: "validation_failed", field: "url" });
  });

  it("sends a message's own events to its statusCallback, signed with the account's callback secret", async () => {
    const customer = await apiCustomer(10);
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550131", body: "Call me back", statusCallback: receiver().url("/callback") },
    });
    expect(sent.status).toBe(201);
    receiver().secret = await getCallbackSecret(customer.id);
    const delivered = await waitFor(() =>
      receiver()
        .ofType("message.delivered")
        .find((r) => r.body.data.id === sent.json.id),
    );
    expect(delivered.verified).toBe(true);
    // Deliveries are separate jobs, so "sent" may land after "delivered"
    const sentEvent = await waitFor(() =>
      receiver()
        .ofType("message.sent")
        .find((r) => r.body.data.id === sent.json.id),
    );
    expect(sentEvent.verified).toBe(true);
    const scheduled = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550131", body: "Later", sendAt: "2030-01-15T09:30:00Z", statusCallback: receiver().url() },
    });
    expect(scheduled.json.error).toMatchObject({ code: "validation_failed", field: "statusCallback" });
  });
});

describe("account events", () => {
  it("sends opt_out.changed, balance.low and message.received to an endpoint that wants them", async () => {
    const { user } = await customerWithEndpoint(["opt_out.changed", "balance.low", "message.received"], "/g");
    await addOptOuts(user.id, ["+12025550141"], "manual");
    const added = await waitFor(() =>
      receiver()
        .ofType("opt_out.changed")
        .find((r) => r.body.data.phone === "+12025550141"),
    );
    expect(added.verified).toBe(true);
    expect(added.body.data).toMatchObject({ optedOut: true, source: "manual", sender: null, keyword: null });
    await removeOptOut(user.id, (await listOptOuts(user.id)).items[0].id);
    await waitFor(() =>
      receiver()
        .ofType("opt_out.changed")
        .find((r) => r.body.data.phone === "+12025550141" && !r.body.data.optedOut),
    );

    await getDb().update(users).set({ lowBalanceThreshold: 15 }).where(eq(users.id, user.id)).run();
    const { id } = await queueMessage(user.id, { to: "+12025550142", body: "x".repeat(1000) });
    const low = await waitFor(() =>
      receiver()
        .ofType("balance.low")
        .find((r) => r.body.data.threshold === 15),
    );
    expect(low.body.data.balance).toBeLessThan(15);
    await waitForStatus(id, "delivered");

    await simulateInbound({ from: "+12025550142", to: getEnv().SMPP_SOURCE_ADDR, text: "Thanks!" });
    const received = await waitFor(() =>
      receiver()
        .ofType("message.received")
        .find((r) => r.body.data.body === "Thanks!"),
    );
    expect(received.body.data).toMatchObject({ direction: "inbound", from: "+12025550142", parts: 1 });
    expect(received.body.data.id).toMatch(/^in_\d+$/);
  });
});

const eventsOf = async (userId: number, type: string) =>
  await getDb()
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.userId, userId), eq(webhookEvents.type, type)))
    .all();

describe("a reply on the shared sender that two accounts wrote to", () => {
  it("sends no message.received on arrival; the admin's assignment sends it once, as for a routed reply", async () => {
    const { user } = await customerWithEndpoint(["message.received"], "/assigned");
    const other = await createTestUser();
    await grantCredits(other.id, 5);
    const phone = "+12025550177";
    for (const sender of [user, other]) await queueMessage(sender.id, { to: phone, body: "See you Friday?" });
    await simulateInbound({ from: phone, to: getEnv().SMPP_SOURCE_ADDR, text: "Which Friday?" });
    const [{ id }] = (await listUnassignedInbound(1)).messages.filter((m) => m.from === phone);
    expect(await eventsOf(user.id, "message.received")).toEqual([]);

    expect(await assignInbound(id, user.id)).toBe(true);
    expect(await assignInbound(id, user.id)).toBe(false);
    const received = await waitFor(() =>
      receiver()
        .ofType("message.received")
        .find((r) => r.body.data.id === `in_${id}`),
    );
    expect(received.verified).toBe(true);
    expect(received.body.data).toMatchObject({ direction: "inbound", from: phone, body: "Which Friday?" });
    expect(await eventsOf(user.id, "message.received")).toHaveLength(1);
  });
});

describe("failing endpoints", () => {
  it("gives a delivery up after WEBHOOK_RETRY_HOURS, and turns off an endpoint failing for 3 days, e-mailing its owner", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/h");
    receiver().answer = (delivery) => (delivery.body.type === "webhook.test" ? { status: 503 } : { status: 200 });
    const longAgo = new Date(Date.now() - 4 * 24 * 3600_000);
    await getDb()
      .update(webhookEndpoints)
      .set({ failingSince: longAgo })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .run();
    const eventId = await withTx(async () => await recordTestEvent(user.id, endpoint.id));
    // Its series started 25 hours ago: the first failure is its last.
    await getDb()
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(webhookDeliveries.eventId, eventId))
      .run();
    const [delivery] = await waitFor(async () => {
      const rows = await listDeliveries(user.id, endpoint.id);
      return rows[0]?.status === "failed" ? rows : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 503 });
    const turnedOff = await getEndpoint(user.id, endpoint.id);
    expect(turnedOff.enabled).toBe(false);
    expect(turnedOff.disabledReason).toMatch(/no successful delivery for 3 days/);
    const mail = await getDb().select().from(mailOutbox).where(eq(mailOutbox.userId, user.id)).all();
    expect(mail.map((m) => m.kind)).toEqual(["webhook_disabled"]);
    expect(mail[0].text).toContain(endpoint.url);
    receiver().answer = () => ({ status: 200 });
  });
});
