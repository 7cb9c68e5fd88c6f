import { count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { ErrorSchema } from "#app/api/schemas.ts";
import { MessageListSchema, MessageSchema, ScheduledMessageSchema } from "#app/api/resources/message-schemas.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { getSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { schedulerOf, scheduleSoon } from "#tests/support/schedules.ts";

afterEach(() => resetClock());

const HOUR = 3_600_000;
const TWO_SEGMENTS = "x".repeat(161);

function expectError(response: { status: number; json: unknown }, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  const body = ErrorSchema.parse(response.json);
  expect(body.error.code).toBe(code);
  if (field !== undefined) expect(body.error.field).toBe(field);
}

async function schedulesOf(userId: number): Promise<number> {
  return (await getDb().select({ n: count() }).from(schedules).where(eq(schedules.userId, userId)).get())!.n;
}

async function messagesOf(userId: number): Promise<number> {
  return (await getDb().select({ n: count() }).from(smsMessages).where(eq(smsMessages.userId, userId)).get())!.n;
}

/** A moment an hour or so ahead, on an odd second (the API is not bound to the screen's 5-minute steps). */
function later(ms = HOUR): Date {
  const at = new Date(Date.now() + ms);
  at.setUTCSeconds(17, 250);
  return at;
}

const scheduleId = (id: string) => Number(id.replace("sch_", ""));

describe("POST /api/v1/messages with sendAt", () => {
  it("schedules the message through the scheduling module and answers a ScheduledMessage that GET follows", async () => {
    const customer = await apiCustomer(5);
    const at = later();
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "(202) 555-0150", body: TWO_SEGMENTS, sendAt: at.toISOString().replace("Z", "+00:00") },
    });
    expect(sent.status).toBe(201);
    const scheduled = ScheduledMessageSchema.parse(sent.json);
    const whole = new Date(Math.floor(at.getTime() / 1000) * 1000);
    expect(scheduled).toMatchObject({
      to: "+12025550150",
      body: TWO_SEGMENTS,
      encoding: "GSM-7",
      segments: 2,
      credits: 2,
      status: "scheduled",
      statusDetail: null,
      sendAt: whole.toISOString(),
      messageId: null,
    });
    expect(scheduled.id).toMatch(/^sch_\d+$/);
    // A one-off schedule, as the Schedule SMS screen makes, armed in BullMQ; nothing charged yet.
    const schedule = await getSchedule(customer.id, scheduleId(scheduled.id));
    expect(schedule).toMatchObject({
      repeat: "none",
      status: "active",
      target: { kind: "phone", to: "+12025550150" },
      firstSendAt: whole.getTime(),
    });
    expect(await schedulerOf(schedule!.id)).toBeTruthy();
    expect(await getBalance(customer.id)).toBe(5);

    const read = await callApi("GET", `/api/v1/messages/${scheduled.id}`, { key: customer.key });
    expect(read.status).toBe(200);
    expect(read.json).toEqual(scheduled);
    // Not a message yet: the list holds only messages that went out.
    expect(
      MessageListSchema.parse((await callApi("GET", "/api/v1/messages", { key: customer.key })).json).data,
    ).toEqual([]);

    // At sendAt the runner sends it through the normal send path; GET now shows the message's status.
    setClock(() => whole.getTime());
    expect(await runOccurrence(schedule!.id, whole.getTime())).toBe("queued");
    resetClock();
    const afterwards = ScheduledMessageSchema.parse(
      (await callApi("GET", `/api/v1/messages/${scheduled.id}`, { key: customer.key })).json,
    );
    expect(afterwards).toMatchObject({ id: scheduled.id, status: "queued", credits: 2, sendAt: whole.toISOString() });
    expect(afterwards.messageId).toBeGreaterThan(0);
    expect(await getBalance(customer.id)).toBe(3);
    const message = MessageSchema.parse(
      (await callApi("GET", `/api/v1/messages/${afterwards.messageId}`, { key: customer.key })).json,
    );
    expect(message).toMatchObject({ to: "+12025550150", body: TWO_SEGMENTS, status: "queued" });

    // It went out: too late to cancel, by either id.
    expectError(
      await callApi("DELETE", `/api/v1/messages/${scheduled.id}`, { key: customer.key }),
      409,
      "already_sent",
    );
    expectError(await callApi("DELETE", `/api/v1/messages/${message.id}`, { key: customer.key }), 409, "already_sent");
    expect((await getSchedule(customer.id, schedule!.id))?.status).toBe("completed");
  });

  it("takes any future second; refuses a past time, a time without a zone and a balance that cannot pay it", async () => {
    const customer = await apiCustomer(1);
    const post = (json: unknown) => callApi("POST", "/api/v1/messages", { key: customer.key, json });
    const soon = new Date(Date.now() + 61_000);
    soon.setUTCSeconds(7, 0);
    const odd = await post({ to: "+12025550151", body: "odd minute", sendAt: soon.toISOString() });
    expect(odd.status).toBe(201);
    expect(odd.json.sendAt).toBe(soon.toISOString());

    const past = await post({ to: "+12025550151", body: "hi", sendAt: new Date(Date.now() - 1000).toISOString() });
    expectError(past, 422, "validation_failed", "sendAt");
    expect(past.json.error.message).toBe("sendAt must be in the future");
    expectError(
      await post({ to: "+12025550151", body: "hi", sendAt: "2030-02-30T09:00:00Z" }),
      422,
      "validation_failed",
      "sendAt",
    );
    expectError(await post({ to: "+12025550151", body: "hi", sendAt: "tomorrow" }), 422, "validation_failed", "sendAt");
    expectError(
      await post({ to: "not a number", body: "hi", sendAt: later().toISOString() }),
      422,
      "validation_failed",
      "to",
    );
    expectError(
      await post({ to: "+12025550151", body: "", sendAt: later().toISOString() }),
      422,
      "validation_failed",
      "body",
    );
    // The balance must pay it when it is scheduled (1 credit left, this one costs 2).
    const short = await post({ to: "+12025550151", body: TWO_SEGMENTS, sendAt: later().toISOString() });
    expectError(short, 402, "insufficient_credits");
    expect(short.json.error.message).toMatch(/costs 2 when it goes out and your balance is 1\. Nothing was scheduled/);
    expect(await schedulesOf(customer.id)).toBe(1);
    expect(await getBalance(customer.id)).toBe(1);
  });

  it("becomes a failed message if the credits are gone when it goes out", async () => {
    const customer = await apiCustomer(1);
    const at = later();
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550152", body: "one", sendAt: at.toISOString() },
    });
    await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550152", body: "spends the credit" },
    });
    const when = Math.floor(at.getTime() / 1000) * 1000;
    setClock(() => when);
    expect(await runOccurrence(scheduleId(sent.json.id), when)).toBe("insufficient-credits");
    resetClock();
    const read = ScheduledMessageSchema.parse(
      (await callApi("GET", `/api/v1/messages/${sent.json.id}`, { key: customer.key })).json,
    );
    expect(read).toMatchObject({ status: "failed", statusDetail: "Insufficient credits: 1 needed, 0 available" });
  });
});

describe("DELETE /api/v1/messages/{id}", () => {
  it("cancels a scheduled message that has not gone out; again answers the same; it never goes out", async () => {
    const customer = await apiCustomer(5);
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550153", body: "cancel me", sendAt: later().toISOString() },
    });
    const id = scheduleId(sent.json.id);
    const cancelled = await callApi("DELETE", `/api/v1/messages/${sent.json.id}`, { key: customer.key });
    expect(cancelled.status).toBe(200);
    expect(ScheduledMessageSchema.parse(cancelled.json)).toEqual({
      ...sent.json,
      status: "cancelled",
      updatedAt: expect.any(String),
    });
    expect((await getSchedule(customer.id, id))?.status).toBe("cancelled");
    expect(await schedulerOf(id)).toBeFalsy();
    const again = await callApi("DELETE", `/api/v1/messages/${sent.json.id}`, { key: customer.key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(cancelled.json);
    expect((await callApi("GET", `/api/v1/messages/${sent.json.id}`, { key: customer.key })).json.status).toBe(
      "cancelled",
    );
    const when = (await getSchedule(customer.id, id))!.firstSendAt;
    setClock(() => when);
    expect(await runOccurrence(id, when)).toBe("inactive");
    expect(await messagesOf(customer.id)).toBe(0);
    expect(await getBalance(customer.id)).toBe(5);
  });

  it("is a 404 for another account's ids, for repeating schedules and for malformed ids, and changes nothing", async () => {
    const a = await apiCustomer(5);
    const b = await apiCustomer(5);
    const scheduled = await callApi("POST", "/api/v1/messages", {
      key: a.key,
      json: { to: "+12025550154", body: "A's", sendAt: later().toISOString() },
    });
    const message = await callApi("POST", "/api/v1/messages", {
      key: a.key,
      json: { to: "+12025550154", body: "A's now" },
    });
    for (const id of [scheduled.json.id, message.json.id]) {
      expectError(await callApi("GET", `/api/v1/messages/${id}`, { key: b.key }), 404, "not_found");
      expectError(await callApi("DELETE", `/api/v1/messages/${id}`, { key: b.key }), 404, "not_found");
    }
    expect((await getSchedule(a.id, scheduleId(scheduled.json.id)))?.status).toBe("active");
    // A repeating schedule (made on the Schedule SMS screen) is not a scheduled message.
    const daily = await scheduleSoon(a.id, { repeat: "daily", inMs: HOUR });
    expectError(await callApi("GET", `/api/v1/messages/sch_${daily.id}`, { key: a.key }), 404, "not_found");
    expectError(await callApi("DELETE", `/api/v1/messages/sch_${daily.id}`, { key: a.key }), 404, "not_found");
    expect((await getSchedule(a.id, daily.id))?.status).toBe("active");
    for (const id of [
      "sch_0",
      "sch_",
      "sch_abc",
      "sch_-1",
      "SCH_1",
      "sch_1.5",
      "sch_9999999999999999",
      "..%2Fbalance",
      "%00",
    ]) {
      expectError(await callApi("DELETE", `/api/v1/messages/${id}`, { key: a.key }), 404, "not_found");
      expectError(await callApi("GET", `/api/v1/messages/${id}`, { key: a.key }), 404, "not_found");
    }
    expectError(await callApi("DELETE", `/api/v1/messages/${scheduled.json.id}`), 401, "unauthorized");
    expect((await getSchedule(a.id, scheduleId(scheduled.json.id)))?.status).toBe("active");
  });
});

describe("Idempotency-Key with sendAt", () => {
  it("answers a retry with the first answer and schedules once; another body, time or kind is a 409", async () => {
    const customer = await apiCustomer(5);
    const at = later();
    const request = {
      key: customer.key,
      json: { to: "+12025550155", body: "reminder", sendAt: at.toISOString() },
      headers: { "idempotency-key": "appt-9" },
    };
    const first = await callApi("POST", "/api/v1/messages", request);
    expect(first.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 4 }, () => callApi("POST", "/api/v1/messages", request)));
    for (const again of answers) {
      expect(again.status).toBe(201);
      expect(again.json).toEqual(first.json);
      expect(again.headers["Idempotent-Replayed"]).toBe("true");
    }
    expect(await schedulesOf(customer.id)).toBe(1);
    // Still the first answer after it was cancelled, and even once sendAt has passed.
    await callApi("DELETE", `/api/v1/messages/${first.json.id}`, { key: customer.key });
    setClock(() => at.getTime() + HOUR);
    expect((await callApi("POST", "/api/v1/messages", request)).json).toEqual(first.json);
    resetClock();

    const conflict = (json: Record<string, unknown>, key = "appt-9") =>
      callApi("POST", "/api/v1/messages", { key: customer.key, json, headers: { "idempotency-key": key } });
    expectError(await conflict({ ...request.json, body: "other" }), 409, "idempotency_conflict", "Idempotency-Key");
    expectError(
      await conflict({ ...request.json, sendAt: later(2 * HOUR).toISOString() }),
      409,
      "idempotency_conflict",
    );
    expectError(await conflict({ to: "+12025550155", body: "reminder" }), 409, "idempotency_conflict");
    // A key first used to send at once cannot then schedule.
    expect((await conflict({ to: "+12025550155", body: "now" }, "now-1")).status).toBe(201);
    expectError(
      await conflict({ to: "+12025550155", body: "now", sendAt: later().toISOString() }, "now-1"),
      409,
      "idempotency_conflict",
    );
    expect(await schedulesOf(customer.id)).toBe(1);
    expect(await messagesOf(customer.id)).toBe(1);
  });
});
