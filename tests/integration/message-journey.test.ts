// A message's journey, as its owner reads it on /sms/messages/:id and GET /api/v1/messages/{id}/events:
// sent with a named API key over real SMPP to the loopback SMSC, its submit answer and receipt; a
// refusal and its refund; another account's message not found.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertApiKey } from "#app/modules/api-keys/keys.server.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { saveQuietHours } from "#app/modules/quiet-hours/quiet-hours.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { loader as journeyLoader } from "#app/routes/sms/message-journey.tsx";
import { loader as historyLoader } from "#app/routes/sms/message-history.tsx";
import { callApi } from "#tests/support/api.ts";
import { type SmppGateway, startSmppGateway } from "#tests/support/smpp-gateway.ts";
import { SMPP_STATUS } from "#tests/support/smpp-server.ts";
import { call, createTestUser, dataOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { grantCredits, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

// Read at the first getEnv(), after the imports; the endpoint below is on loopback.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

let gateway: SmppGateway | undefined;

beforeAll(async () => {
  // One number's phone is never reached: its receipt says UNDELIV with err:001.
  gateway = await startSmppGateway({
    smsc: { receiptFor: (submit) => (submit.destination === "12025550185" ? "UNDELIV" : "DELIVRD") },
  });
});
afterAll(() => gateway?.stop());
afterEach(() => resetClock());

async function customerWithKey(credits: number, keyName: string): Promise<TestUser & { key: string }> {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  const { key } = await insertApiKey(user.id, { name: keyName, scopes: ["messages:send", "messages:read"] });
  return { ...user, key };
}

async function sendWithKey(customer: { key: string }, to: string, body: string): Promise<number> {
  const sent = await callApi("POST", "/api/v1/messages", { key: customer.key, json: { to, body } });
  expect(sent.status, JSON.stringify(sent.json)).toBe(201);
  return sent.json.id as number;
}

async function apiEvents(customer: { key: string }, id: number) {
  return await callApi("GET", `/api/v1/messages/${id}/events`, { key: customer.key });
}

async function pageEvents(user: TestUser, id: number) {
  const result = await call(journeyLoader, makeRequest(`/sms/messages/${id}`, { user }), { id: String(id) });
  return { status: statusOf(result), data: dataOf<Awaited<ReturnType<typeof journeyLoader>>>(result) };
}

describe("a message's journey", () => {
  it("shows a delivered API message accepted by its key, charged, queued, submitted and receipted, on the page and the API", async () => {
    const customer = await customerWithKey(5, "Billing system");
    await createEndpoint(customer.id, {
      url: "http://127.0.0.1:9/hook",
      events: ["message.sent", "message.delivered"],
      enabled: true,
    });
    const id = await sendWithKey(customer, "+12025550181", "Your invoice is ready");
    await waitForStatus(id, "delivered");
    const submit = gateway!.smsc.accepted.find((s) => s.destination === "12025550181")!;

    // Each step once, in the order the message lived them (the webhooks follow their changes).
    const answer = await waitFor(async () => {
      const read = await apiEvents(customer, id);
      return read.json.events?.filter((e: { type: string }) => e.type === "webhook").length === 2 ? read : undefined;
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ messageId: id, status: "delivered" });
    const events = answer.json.events as { type: string; at: string }[];
    expect(events.filter((e) => e.type !== "webhook").map((e) => e.type)).toEqual([
      "accepted",
      "charged",
      "queued",
      "submit_attempt",
      "receipt",
    ]);
    const times = events.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events[0]).toMatchObject({ type: "accepted", via: "api", apiKeyName: "Billing system" });
    expect(events[1]).toMatchObject({ type: "charged", credits: 1 });
    expect(events.find((e) => e.type === "submit_attempt")).toEqual({
      type: "submit_attempt",
      at: expect.any(String),
      upstream: "default",
      bind: "1",
      outcome: "accepted",
      commandStatus: 0,
      smscMessageIds: [submit.messageId],
      error: null,
    });
    expect(events.find((e) => e.type === "receipt")).toEqual({
      type: "receipt",
      at: expect.any(String),
      part: 1,
      smscMessageId: submit.messageId,
      stat: "DELIVRD",
      // The transport keeps no err for a delivery (err:000).
      err: null,
    });
    expect(events.filter((e) => e.type === "webhook")).toEqual([
      expect.objectContaining({ event: "message.sent", url: "http://127.0.0.1:9/hook" }),
      expect.objectContaining({ event: "message.delivered", url: "http://127.0.0.1:9/hook" }),
    ]);

    // The page shows the same journey, and the history links to it.
    const page = await pageEvents(customer, id);
    expect(page.status).toBe(200);
    expect(page.data.message).toMatchObject({ id, to: "+12025550181", status: "delivered" });
    expect(page.data.events.map((e) => ({ ...e, at: new Date(e.at).toISOString() }))).toEqual(events);
    const history = dataOf<Awaited<ReturnType<typeof historyLoader>>>(
      await call(historyLoader, makeRequest("/sms/messageHistory", { user: customer })),
    );
    expect(history.messages.map((m) => m.id)).toContain(id);
  });

  it("shows a refused message's failure and its refund", async () => {
    const customer = await customerWithKey(2, "Shop");
    gateway!.smsc.respondWith(SMPP_STATUS.ESME_RINVDSTADR);
    const { id } = await queueMessage(customer.id, { to: "+12025550182", body: "nobody there" });
    await waitForStatus(id, "failed");
    const reason = "Rejected by the SMSC: ESME_RINVDSTADR (0x0000000b)";

    const answer = await apiEvents(customer, id);
    expect(answer.status).toBe(200);
    const events = answer.json.events as Record<string, unknown>[];
    expect(events.map((e) => e.type)).toEqual([
      "accepted",
      "charged",
      "queued",
      "submit_attempt",
      "failed",
      "refunded",
    ]);
    expect(events[0]).toMatchObject({ via: "page", apiKeyName: null });
    expect(events[3]).toMatchObject({ outcome: "permanent", smscMessageIds: [], error: reason, upstream: "default" });
    expect(events[4]).toMatchObject({ code: "send_failed", reason });
    expect(events[5]).toMatchObject({ credits: 1, reason });

    const page = await pageEvents(customer, id);
    expect(page.data.events.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(page.data.events.find((e) => e.type === "refunded")).toMatchObject({ credits: 1, reason });
  });

  it("shows an undelivered receipt's stat and err", async () => {
    const customer = await customerWithKey(1, "Alerts");
    const id = await sendWithKey(customer, "+12025550185", "are you there?");
    await waitForStatus(id, "undelivered");
    const events = (await apiEvents(customer, id)).json.events as Record<string, unknown>[];
    expect(events.map((e) => e.type)).toEqual(["accepted", "charged", "queued", "submit_attempt", "receipt"]);
    expect(events[4]).toMatchObject({ part: 1, stat: "UNDELIV", err: "001" });
    const page = await pageEvents(customer, id);
    expect(page.data.message.status).toBe("undelivered");
    expect(page.data.events[4]).toMatchObject({ type: "receipt", stat: "UNDELIV", err: "001" });
  });

  it("shows a quiet-hours hold and when it ends", async () => {
    const customer = await customerWithKey(2, "Night");
    await saveQuietHours(customer.id, { enabled: true, startMinute: 21 * 60, endMinute: 8 * 60 });
    // 23:00 in New York; time runs on from there.
    const offset = Date.parse("2026-06-11T03:00:00Z") - Date.now();
    setClock(() => Date.now() + offset);
    const { id } = await queueMessage(customer.id, { to: "+12025550184", body: "later", respectQuietHours: true });

    const events = (await apiEvents(customer, id)).json.events as Record<string, unknown>[];
    expect(events.map((e) => e.type)).toEqual(["accepted", "charged", "held", "queued"]);
    expect(events[2]).toMatchObject({ reason: "quiet_hours", until: "2026-06-11T12:00:00.000Z" });
    const page = await pageEvents(customer, id);
    expect(page.data.events[2]).toMatchObject({ type: "held", until: Date.parse("2026-06-11T12:00:00Z") });
  });

  it("answers 404 for another account's message, on the page and the API", async () => {
    const owner = await customerWithKey(1, "Owner");
    const other = await customerWithKey(1, "Other");
    const id = await sendWithKey(owner, "+12025550183", "mine");

    expect((await pageEvents(other, id)).status).toBe(404);
    const answer = await apiEvents(other, id);
    expect(answer.status).toBe(404);
    expect(answer.json.error).toMatchObject({ code: "not_found" });
    // The owner's own reads work, so the 404 is the owner check, not the id.
    expect((await pageEvents(owner, id)).status).toBe(200);
    expect((await apiEvents(owner, id)).status).toBe(200);
  });
});
