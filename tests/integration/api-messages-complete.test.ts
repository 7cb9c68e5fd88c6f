// The REST API's message resource and list filters: every field integrators (and webhooks) read,
// and each filter on its own and together, across pages.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { MessageListSchema, MessageSchema } from "#app/api/schemas.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";

type Customer = Awaited<ReturnType<typeof apiCustomer>>;

async function send(customer: Customer, to: string, body = "hello") {
  const sent = await callApi("POST", "/api/v1/messages", { key: customer.key, json: { to, body } });
  expect(sent.status).toBe(201);
  return MessageSchema.parse(sent.json);
}

async function list(customer: Customer, query: string) {
  const answer = await callApi("GET", `/api/v1/messages?${query}`, { key: customer.key });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return MessageListSchema.parse(answer.json);
}

const ids = (page: { data: { id: number | string }[] }) => page.data.map((m) => m.id);

describe("the message resource", () => {
  it("carries from, direction, times, segments, credits and the reason it failed", async () => {
    const customer = await apiCustomer(10);
    const sent = await send(customer, "+12025550170", "x".repeat(161));
    expect(sent).toMatchObject({
      direction: "outbound",
      from: null,
      segments: 2,
      credits: 2,
      groupSendId: null,
      errorCode: null,
      errorMessage: null,
      submittedAt: null,
      doneAt: null,
      updatedAt: sent.createdAt,
    });
    const now = Date.now();
    getDb()
      .update(smsMessages)
      .set({
        status: "undelivered",
        error: "001",
        submittedAt: new Date(now),
        doneAt: new Date(now + 5),
        updatedAt: new Date(now + 5),
      })
      .where(eq(smsMessages.id, sent.id))
      .run();
    const read = MessageSchema.parse((await callApi("GET", `/api/v1/messages/${sent.id}`, { key: customer.key })).json);
    expect(read).toMatchObject({
      status: "undelivered",
      errorCode: "undelivered",
      errorMessage: "The carrier could not deliver it (carrier error 001)",
      submittedAt: new Date(now).toISOString(),
      doneAt: new Date(now + 5).toISOString(),
      updatedAt: new Date(now + 5).toISOString(),
    });
  });
});

describe("GET /api/v1/messages filters", () => {
  it("filters by to, status, from, group send and creation time, each and together, across pages", async () => {
    const customer = await apiCustomer(20);
    const a1 = await send(customer, "+12025550171");
    const b1 = await send(customer, "+12025550172");
    const a2 = await send(customer, "(202) 555-0171");
    const a3 = await send(customer, "+12025550171");
    const t0 = Date.now();
    const set = (id: number, values: Partial<typeof smsMessages.$inferInsert>) =>
      getDb().update(smsMessages).set(values).where(eq(smsMessages.id, id)).run();
    set(a1.id, { status: "delivered", createdAt: new Date(t0 - 3 * 3600_000) });
    set(b1.id, { fromAddress: "AcmeAlerts", createdAt: new Date(t0 - 2 * 3600_000) });
    set(a2.id, { status: "delivered", groupSendId: 9_999, createdAt: new Date(t0 - 3600_000) });

    expect(ids(await list(customer, "to=%2B12025550171"))).toEqual([a3.id, a2.id, a1.id]);
    expect(ids(await list(customer, "to=2025550171&status=delivered"))).toEqual([a2.id, a1.id]);
    expect(ids(await list(customer, "from=AcmeAlerts"))).toEqual([b1.id]);
    expect(ids(await list(customer, "from=default&to=%2B12025550172"))).toEqual([]);
    expect(ids(await list(customer, "groupSendId=9999"))).toEqual([a2.id]);
    const after = new Date(t0 - 2.5 * 3600_000).toISOString();
    const before = new Date(t0 - 0.5 * 3600_000).toISOString();
    expect(ids(await list(customer, `createdAfter=${after}&createdBefore=${before}`))).toEqual([a2.id, b1.id]);

    // Paging keeps the filter.
    const first = await list(customer, "to=%2B12025550171&limit=2");
    expect(ids(first)).toEqual([a3.id, a2.id]);
    const second = await list(customer, `to=%2B12025550171&limit=2&cursor=${first.nextCursor}`);
    expect(ids(second)).toEqual([a1.id]);
    expect(second.nextCursor).toBeNull();
  });

  it("refuses a filter it cannot read with 400 naming it", async () => {
    const customer = await apiCustomer();
    for (const [query, field] of [
      ["to=not-a-phone", "to"],
      ["createdAfter=yesterday", "createdAfter"],
      ["direction=inbound&groupSendId=3", "groupSendId"],
    ]) {
      const answer = await callApi("GET", `/api/v1/messages?${query}`, { key: customer.key });
      expect(answer.status, query).toBe(400);
      expect(answer.json.error).toMatchObject({ code: "invalid_request", field });
    }
  });
});
