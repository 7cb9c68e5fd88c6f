import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { getBalance, getLedgerSum, InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { queueMessage, queueMessages } from "#app/modules/sms/send.server.ts";
import { action as documentationAction } from "#app/routes/sms/documentation.tsx";
import { action as sendSmsAction, loader as sendSmsLoader } from "#app/routes/sms/send-sms.tsx";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { grantCredits, ledgerKeys, messageRow, outboxHas, sendJobsFor } from "#tests/support/sms.ts";

type Reply = { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };

function messagesOf(userId: number): number {
  return getDb().select({ n: count() }).from(smsMessages).where(eq(smsMessages.userId, userId)).get()!.n;
}

describe("queueMessages", () => {
  it("reserves the credits, queues the message with its outbox row and enqueues its job", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 5);
    const sent = await queueMessage(user.id, { to: "+12025550140", body: "x".repeat(161) });
    expect(sent).toMatchObject({ segments: 2, credits: 2, duplicate: false });
    expect(messageRow(sent.id)).toMatchObject({
      status: "queued",
      toPhone: "+12025550140",
      encoding: "GSM-7",
      source: "web",
    });
    expect(outboxHas(sent.id)).toBe(true);
    expect(getBalance(user.id)).toBe(3);
    expect(ledgerKeys(user.id)).toContain(`msg:${sent.id}:debit`);
    const jobs = await sendJobsFor(sent.id);
    expect(jobs.map((job) => job.data)).toEqual([{ v: 2, messageIds: [sent.id] }]);
  });

  it("writes nothing when the batch costs more than the balance, and says what it needs", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 3);
    const batch = [
      { to: "+12025550141", body: "one" },
      { to: "+12025550142", body: "y".repeat(200) },
      { to: "+12025550143", body: "three" },
    ];
    const error = await queueMessages(user.id, batch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ needed: 4, balance: 3 });
    expect(messagesOf(user.id)).toBe(0);
    expect(getBalance(user.id)).toBe(3);
    expect(ledgerKeys(user.id).filter((k) => k.startsWith("msg:"))).toEqual([]);
  });

  it("sends nothing for a duplicate schedule occurrence or API reference", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 10);
    const occurrence = {
      to: "+12025550144",
      body: "weekly",
      source: "schedule" as const,
      scheduleId: 77,
      occurrenceAt: 1_800_000_000_000,
    };
    const first = await queueMessage(user.id, occurrence);
    const again = await queueMessage(user.id, occurrence);
    expect(again).toMatchObject({ id: first.id, duplicate: true });
    const api = await queueMessages(user.id, [
      { to: "+12025550145", body: "api", source: "api", apiRef: "req-1" },
      { to: "+12025550145", body: "api", source: "api", apiRef: "req-1" },
    ]);
    expect(api.messages.map((m) => m.duplicate)).toEqual([false, true]);
    expect(api.credits).toBe(1);
    expect(messagesOf(user.id)).toBe(2);
    expect(getBalance(user.id)).toBe(8);
    // Another user may use the same API reference.
    const other = await createTestUser();
    grantCredits(other.id, 1);
    expect((await queueMessage(other.id, { to: "+12025550145", body: "api", apiRef: "req-1" })).duplicate).toBe(false);
  });

  it("refuses what the forms would have refused", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 50);
    await expect(queueMessage(user.id, { to: "2025550146", body: "hi" })).rejects.toThrow(/E\.164/);
    await expect(queueMessage(user.id, { to: "+12025550146", body: "" })).rejects.toThrow(/segments/);
    await expect(queueMessage(user.id, { to: "+12025550146", body: "z".repeat(153 * 10 + 1) })).rejects.toThrow(
      /segments/,
    );
  });
});

describe("concurrent sends against a small balance", () => {
  it("50 concurrent posts against 10 credits: exactly 10 queued, balance 0", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 10);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(
          sendSmsAction,
          makeRequest("/sms/sendSms", { user, form: { phoneNumber: "+12025550150", message: `hello ${i}` } }),
        ),
      ),
    );
    expect(results.filter((r) => locationOf(r) === "/sms/sendSms")).toHaveLength(10);
    expect(results.filter((r) => statusOf(r) === 400)).toHaveLength(40);
    expect(messagesOf(user.id)).toBe(10);
    expect(getBalance(user.id)).toBe(0);
    expect(getLedgerSum(user.id)).toBe(0);
  });

  it("holds across processes writing the same database at once", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 10);
    const children = Array.from({ length: 3 }, () =>
      spawn(process.execPath, ["tests/support/send-burst.ts", String(user.id), "10"], {
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const lines = children.map((child) => createInterface({ input: child.stdout! })[Symbol.asyncIterator]());
    // Start them together: each waits for "go" after saying it is ready.
    for (const line of lines) expect((await line.next()).value).toBe("ready");
    for (const child of children) child.stdin!.write("go\n");
    const tallies = await Promise.all(lines.map(async (line) => JSON.parse((await line.next()).value as string)));
    expect(tallies.reduce((sum, t) => sum + t.queued, 0)).toBe(10);
    expect(tallies.reduce((sum, t) => sum + t.refused, 0)).toBe(20);
    expect(messagesOf(user.id)).toBe(10);
    expect(getBalance(user.id)).toBe(0);
    expect(getLedgerSum(user.id)).toBe(0);
  }, 60_000);
});

describe("the send form's action", () => {
  it("queues the message and comes back to the form with the success toast", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 3);
    const result = (await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { phoneNumber: "(202) 555-0160", message: "Line one\r\nLine two" } }),
    )) as Response;
    expect(locationOf(result)).toBe("/sms/sendSms");
    expect(result.headers.get("Set-Cookie")).toContain("en_toast=");
    const row = getDb().select().from(smsMessages).where(eq(smsMessages.userId, user.id)).get();
    // Stored in E.164, with the line break the browser counted.
    expect(row).toMatchObject({ toPhone: "+12025550160", body: "Line one\nLine two", segments: 1, status: "queued" });
    expect(getBalance(user.id)).toBe(2);
  });

  it("answers from /sms/documentation too, and comes back there", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 1);
    const result = await call(
      documentationAction,
      makeRequest("/sms/documentation", { user, form: { phoneNumber: "+12025550161", message: "hi" } }),
    );
    expect(locationOf(result)).toBe("/sms/documentation");
  });

  it("says so inline when credits are short, and queues and debits nothing", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 1);
    const result = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { phoneNumber: "+12025550162", message: "w".repeat(200) } }),
    );
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error?.[""]).toEqual([
      "Failed to send SMS, please check to ensure that you have enough credits",
      "This message costs 2 credits; your balance is 1 credit.",
    ]);
    expect(dataOf<Reply>(result).initialValue?.message).toBe("w".repeat(200));
    expect(messagesOf(user.id)).toBe(0);
    expect(getBalance(user.id)).toBe(1);
  });

  it("names a bad number and refuses a message over the segment limit", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 100);
    const result = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { phoneNumber: "12345", message: "é".repeat(1531) } }),
    );
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error).toMatchObject({
      phoneNumber: ['"12345" is not a valid phone number'],
      message: ["Message is too long: 11 segments, the maximum is 10"],
    });
    expect(messagesOf(user.id)).toBe(0);
  });

  it("checks the cost without sending (the counter without JavaScript)", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 5);
    const result = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { intent: "check", phoneNumber: "", message: "Привет" } }),
    );
    expect(statusOf(result)).toBe(200);
    expect(dataOf<Reply>(result).initialValue).toMatchObject({ intent: "check", message: "Привет" });
    expect(messagesOf(user.id)).toBe(0);
    expect(getBalance(user.id)).toBe(5);
  });

  it("asks for login first", async () => {
    expect(locationOf(await call(sendSmsLoader, makeRequest("/sms/sendSms")))).toMatch(/^\/login\?redirectTo=/);
    const posted = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { form: { phoneNumber: "+12025550163", message: "hi" } }),
    );
    expect(locationOf(posted)).toMatch(/^\/login/);
    expect(
      getDb().select({ n: count() }).from(smsMessages).where(eq(smsMessages.toPhone, "+12025550163")).get()!.n,
    ).toBe(0);
  });
});
