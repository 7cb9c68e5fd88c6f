// The REST API's message resource and list filters: every field integrators (and webhooks) read,
// and each filter on its own and together, across pages.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { BatchResultSchema, MessageListSchema, MessageSchema } from "#app/api/resources/message-schemas.ts";
import { GroupSendListSchema } from "#app/api/resources/group-sends.server.ts";
import { ScheduleSchema } from "#app/api/resources/schedules.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { addOptOuts } from "#app/modules/opt-outs/opt-outs.server.ts";
import { createSender } from "#app/modules/senders/senders.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { ledgerKeys, messageRow, outboxHas } from "#tests/support/sms.ts";

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
    await getDb()
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
    const set = async (id: number, values: Partial<typeof smsMessages.$inferInsert>) =>
      await getDb().update(smsMessages).set(values).where(eq(smsMessages.id, id)).run();
    await set(a1.id, { status: "delivered", createdAt: new Date(t0 - 3 * 3600_000) });
    await set(b1.id, { fromAddress: "AcmeAlerts", createdAt: new Date(t0 - 2 * 3600_000) });
    await set(a2.id, { status: "delivered", groupSendId: 9_999, createdAt: new Date(t0 - 3600_000) });

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

describe("POST /api/v1/messages/batch", () => {
  it("queues each valid recipient in order until the balance runs out; the rest get their reason; one key, one charge", async () => {
    const customer = await apiCustomer(5);
    await addOptOuts(customer.id, ["+12025550183"], "manual");
    const request = {
      key: customer.key,
      headers: { "idempotency-key": "batch-1" },
      json: {
        body: "x".repeat(161),
        messages: [
          { to: "+12025550181" },
          { to: "not a phone" },
          { to: "+12025550182", body: "short" },
          { to: "+12025550183" },
          { to: "+12025550184", body: "z".repeat(400) },
          { to: "+12025550185", body: "would fit, but comes after one that did not" },
        ],
      },
    };
    const first = await callApi("POST", "/api/v1/messages/batch", request);
    expect(first.status).toBe(200);
    const result = BatchResultSchema.parse(first.json);
    expect(result).toMatchObject({ total: 6, queued: 2, refused: 4, credits: 3, balance: 2 });
    expect(result.results.map((r) => (r.status === "queued" ? "queued" : r.error.code))).toEqual([
      "queued",
      "invalid_phone",
      "queued",
      "recipient_opted_out",
      "insufficient_credits",
      "insufficient_credits",
    ]);
    expect(await getBalance(customer.id)).toBe(2);
    const queuedIds = result.results.flatMap((r) => (r.status === "queued" ? [r.message.id] : []));
    expect(await Promise.all(queuedIds.map(async (id) => (await messageRow(id))?.status))).toEqual([
      "queued",
      "queued",
    ]);

    const again = await callApi("POST", "/api/v1/messages/batch", request);
    expect(again.status).toBe(200);
    expect(again.headers["Idempotent-Replayed"]).toBe("true");
    expect(again.json.results).toEqual(first.json.results);
    expect(await getBalance(customer.id)).toBe(2);

    const other = await callApi("POST", "/api/v1/messages/batch", {
      ...request,
      json: { ...request.json, body: "another text" },
    });
    expect(other.status).toBe(409);
    expect(await getBalance(customer.id)).toBe(2);
  });

  it("gives each queued recipient its own row, outbox row and debit, with the refused ones (unknown sender, opted out, balance spent) in between", async () => {
    const customer = await apiCustomer(4);
    await createSender({ address: "AcmeShop", kind: "alphanumeric", ton: 5, npi: 0, userId: customer.id });
    await addOptOuts(customer.id, ["+12025550193"], "manual");
    const answer = await callApi("POST", "/api/v1/messages/batch", {
      key: customer.key,
      json: {
        body: "hello",
        messages: [
          { to: "+12025550191", from: "AcmeShop" },
          { to: "+12025550192", from: "NotOurs" },
          { to: "+12025550193" },
          { to: "+12025550194", body: "two parts ".repeat(20) },
          { to: "+12025550195", body: "two parts again ".repeat(12) },
          { to: "+12025550196" },
          { to: "+12025550197" },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const result = BatchResultSchema.parse(answer.json);
    expect(result.results.map((r) => (r.status === "queued" ? "queued" : r.error.code))).toEqual([
      "queued",
      "unknown_sender",
      "recipient_opted_out",
      "queued",
      "insufficient_credits",
      "insufficient_credits",
      "insufficient_credits",
    ]);
    expect(result).toMatchObject({ queued: 2, credits: 3, balance: 1 });
    const queued = result.results.flatMap((r) => (r.status === "queued" ? [r.message] : []));
    expect(
      await Promise.all(
        queued.map(async (m) => {
          const row = await messageRow(m.id);
          return [row?.toPhone, row?.fromAddress, row?.credits];
        }),
      ),
    ).toEqual([
      ["+12025550191", "AcmeShop", 1],
      ["+12025550194", "AcmeShop", 2],
    ]);
    expect(await Promise.all(queued.map(async (m) => await outboxHas(m.id)))).toEqual([true, true]);
    expect((await ledgerKeys(customer.id)).filter((key) => key.startsWith("msg:"))).toEqual(
      queued.map((m) => `msg:${m.id}:debit`),
    );
    expect(await getBalance(customer.id)).toBe(1);
  });

  it("lists every invalid field of a batch in one 422 and sends nothing", async () => {
    const customer = await apiCustomer(5);
    const answer = await callApi("POST", "/api/v1/messages/batch", {
      key: customer.key,
      json: { messages: [{ to: "+12025550181" }, { to: "+12025550182", body: "" }, { body: "hi" }] },
    });
    expect(answer.status).toBe(422);
    expect(answer.json.error.code).toBe("validation_failed");
    expect(answer.json.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "messages.0.body",
      "messages.1.body",
      "messages.2.to",
    ]);
    expect(await getBalance(customer.id)).toBe(5);
  });

  it("answers a body that is no object (null, a list, a number) with 422, never 500", async () => {
    const customer = await apiCustomer(5);
    for (const path of ["/api/v1/messages/batch", "/api/v1/messages/quote"]) {
      for (const json of [null, [], 7]) {
        const answer = await callApi("POST", path, { key: customer.key, json });
        expect(answer.status, `${path} ${JSON.stringify(json)}`).toBe(422);
      }
    }
  });
});

describe("POST /api/v1/messages/quote", () => {
  it("quotes what the send then charges, GSM-7 and UCS-2, one body and a batch", async () => {
    const customer = await apiCustomer(100);
    const bodies = ["plain", "x".repeat(300), "Café at 9? 😀 " + "y".repeat(70), "€ ~ [] {}"];
    for (const body of bodies) {
      const quote = await callApi("POST", "/api/v1/messages/quote", { key: customer.key, json: { body } });
      expect(quote.status).toBe(200);
      const before = await getBalance(customer.id);
      const sent = await send(customer, "+12025550190", body);
      expect(quote.json.credits).toBe(before - (await getBalance(customer.id)));
      expect(quote.json.items[0]).toMatchObject({
        encoding: sent.encoding,
        segments: sent.segments,
        credits: sent.credits,
      });
    }
    const ucs = await callApi("POST", "/api/v1/messages/quote", {
      key: customer.key,
      json: { body: "Café at 9? 😀 ő" },
    });
    expect(ucs.json).toMatchObject({ encoding: "UCS-2", nonGsmCharacters: ["😀", "ő"] });

    const batch = { body: "hello", messages: [{ to: "+12025550191" }, { to: "+12025550192", body: "😀".repeat(40) }] };
    const quote = await callApi("POST", "/api/v1/messages/quote", { key: customer.key, json: batch });
    expect(quote.json).toMatchObject({ messages: 2, segments: 3, credits: 3, encoding: "UCS-2" });
    const before = await getBalance(customer.id);
    const sent = await callApi("POST", "/api/v1/messages/batch", { key: customer.key, json: batch });
    expect(sent.json.credits).toBe(quote.json.credits);
    expect(before - (await getBalance(customer.id))).toBe(quote.json.credits);
  });
});

describe("contacts, groups and group sends", () => {
  it("gets, changes and deletes a contact and a group, adds and removes members, lists group sends", async () => {
    const customer = await apiCustomer(10);
    const post = (path: string, json: unknown) => callApi("POST", path, { key: customer.key, json });
    const group = (await post("/api/v1/groups", { name: "Team", description: "Everyone" })).json;
    const ada = (await post("/api/v1/contacts", { name: "Ada", phone: "+12025550301", email: "ada@example.com" })).json;
    const bob = (await post("/api/v1/contacts", { name: "Bob", phone: "+12025550302", email: "bob@example.com" })).json;

    expect((await callApi("GET", `/api/v1/contacts/${ada.id}`, { key: customer.key })).json).toEqual(ada);
    const changed = await callApi("PATCH", `/api/v1/contacts/${ada.id}`, {
      key: customer.key,
      json: { email: "ada@example.org", groupIds: [group.id] },
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ name: "Ada", email: "ada@example.org", groups: [{ id: group.id }] });
    const taken = await callApi("PATCH", `/api/v1/contacts/${bob.id}`, {
      key: customer.key,
      json: { phone: "+12025550301" },
    });
    expect(taken.status).toBe(422);
    expect(taken.json.error.field).toBe("phone");

    for (const contact of [bob, ada, bob]) {
      const added = await callApi("PUT", `/api/v1/groups/${group.id}/members/${contact.id}`, { key: customer.key });
      expect(added.status).toBe(200);
    }
    expect((await callApi("GET", `/api/v1/groups/${group.id}`, { key: customer.key })).json.members).toBe(2);
    const removed = await callApi("DELETE", `/api/v1/groups/${group.id}/members/${bob.id}`, { key: customer.key });
    expect(removed.json.members).toBe(1);
    expect(
      (await callApi("DELETE", `/api/v1/groups/${group.id}/members/${bob.id}`, { key: customer.key })).status,
    ).toBe(404);
    const renamed = await callApi("PATCH", `/api/v1/groups/${group.id}`, { key: customer.key, json: { name: "Crew" } });
    expect(renamed.json).toMatchObject({ name: "Crew", description: "Everyone" });
    expect((await callApi("GET", `/api/v1/groups/${group.id}`, { key: customer.key })).json.name).toBe("Crew");

    const started = await post(`/api/v1/groups/${group.id}/messages`, { body: "hello team" });
    expect(started.status).toBe(202);
    const sends = await callApi("GET", "/api/v1/group-sends?limit=1", { key: customer.key });
    expect(GroupSendListSchema.parse(sends.json).data.map((s) => s.id)).toEqual([started.json.id]);

    expect((await callApi("DELETE", `/api/v1/contacts/${bob.id}`, { key: customer.key })).json.id).toBe(bob.id);
    expect((await callApi("GET", `/api/v1/contacts/${bob.id}`, { key: customer.key })).status).toBe(404);
    expect((await callApi("DELETE", `/api/v1/groups/${group.id}`, { key: customer.key })).json.id).toBe(group.id);
    expect((await callApi("GET", `/api/v1/groups/${group.id}`, { key: customer.key })).status).toBe(404);
    expect((await callApi("GET", `/api/v1/contacts/${ada.id}`, { key: customer.key })).json.groups).toEqual([]);
  });
});

describe("schedules", () => {
  it("creates a weekly schedule with an end date and a zone, lists it and cancels it; bad input lists every field", async () => {
    const customer = await apiCustomer(5);
    const first = new Date(Date.now() + 2 * 24 * 3600_000);
    first.setUTCSeconds(0, 0);
    const created = await callApi("POST", "/api/v1/schedules", {
      key: customer.key,
      json: {
        to: "+12025550401",
        body: "Team meeting at 10",
        repeat: "weekly",
        firstSendAt: first.toISOString(),
        timeZone: "Europe/London",
        endDate: "2099-12-31",
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const schedule = ScheduleSchema.parse(created.json);
    expect(schedule).toMatchObject({
      to: "+12025550401",
      repeat: "weekly",
      timeZone: "Europe/London",
      endDate: "2099-12-31",
      status: "active",
      nextSendAt: first.toISOString(),
      creditsPerOccurrence: 1,
    });
    expect(schedule.description).toMatch(/^Weekly on \w+ at \d\d:\d\d$/);
    const listed = await callApi("GET", "/api/v1/schedules", { key: customer.key });
    expect(listed.json.data.map((s: { id: number }) => s.id)).toEqual([schedule.id]);
    const cancelled = await callApi("DELETE", `/api/v1/schedules/${schedule.id}`, { key: customer.key });
    expect(cancelled.json).toMatchObject({ id: schedule.id, status: "cancelled", nextSendAt: null });
    expect((await callApi("GET", `/api/v1/schedules/${schedule.id}`, { key: customer.key })).json.status).toBe(
      "cancelled",
    );

    const bad = await callApi("POST", "/api/v1/schedules", {
      key: customer.key,
      json: {
        to: "+12025550401",
        body: "hi",
        repeat: "daily",
        firstSendAt: "2001-01-01T00:00:00Z",
        timeZone: "Mars/Base",
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.errors.map((e: { field: string }) => e.field)).toEqual(["timeZone"]);
    const past = await callApi("POST", "/api/v1/schedules", {
      key: customer.key,
      json: {
        to: "+12025550401",
        body: "hi",
        repeat: "daily",
        firstSendAt: "2001-01-01T00:00:00Z",
        endDate: "2000-01-01",
      },
    });
    expect(past.status).toBe(422);
    expect(past.json.error.errors.map((e: { field: string }) => e.field)).toContain("firstSendAt");
  });
});
