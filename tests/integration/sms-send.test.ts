import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, usesPostgres } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { getBalance, getLedgerSum, InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { addOptOuts } from "#app/modules/opt-outs/opt-outs.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { queueMessage, queueMessages } from "#app/modules/sms/send.server.ts";
import { queueBatch } from "#app/modules/sms/send-batch.server.ts";
import { workCounts } from "#app/utils/work-counts.server.ts";
import { action as documentationAction } from "#app/routes/sms/documentation.tsx";
import { action as sendSmsAction, loader as sendSmsLoader } from "#app/routes/sms/send-sms.tsx";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { grantCredits, ledgerKeys, messageRow, outboxHas, sendJobsFor } from "#tests/support/sms.ts";

type Reply = { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };

async function messagesOf(userId: number): Promise<number> {
  return (await getDb().select({ n: count() }).from(smsMessages).where(eq(smsMessages.userId, userId)).get())!.n;
}

describe("queueMessages", () => {
  it("reserves the credits, queues the message with its outbox row and enqueues its job", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const sent = await queueMessage(user.id, { to: "+12025550140", body: "x".repeat(161) });
    expect(sent).toMatchObject({ segments: 2, credits: 2, duplicate: false });
    expect(await messageRow(sent.id)).toMatchObject({
      status: "queued",
      toPhone: "+12025550140",
      encoding: "GSM-7",
      source: "web",
    });
    expect(await outboxHas(sent.id)).toBe(true);
    expect(await getBalance(user.id)).toBe(3);
    expect(await ledgerKeys(user.id)).toContain(`msg:${sent.id}:debit`);
    const jobs = await sendJobsFor(sent.id);
    expect(jobs.map((job) => job.data)).toEqual([{ v: 2, messageIds: [sent.id] }]);
  });

  it("writes nothing when the batch costs more than the balance, and says what it needs", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 3);
    const batch = [
      { to: "+12025550141", body: "one" },
      { to: "+12025550142", body: "y".repeat(200) },
      { to: "+12025550143", body: "three" },
    ];
    const error = await queueMessages(user.id, batch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ needed: 4, balance: 3 });
    expect(await messagesOf(user.id)).toBe(0);
    expect(await getBalance(user.id)).toBe(3);
    expect((await ledgerKeys(user.id)).filter((k) => k.startsWith("msg:"))).toEqual([]);
  });

  it("sends nothing for a duplicate schedule occurrence or API reference", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
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
    expect(await messagesOf(user.id)).toBe(2);
    expect(await getBalance(user.id)).toBe(8);
    // Another user may use the same API reference.
    const other = await createTestUser();
    await grantCredits(other.id, 1);
    expect((await queueMessage(other.id, { to: "+12025550145", body: "api", apiRef: "req-1" })).duplicate).toBe(false);
  });

  it("refuses what the forms would have refused", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 50);
    await expect(queueMessage(user.id, { to: "2025550146", body: "hi" })).rejects.toThrow(/E\.164/);
    await expect(queueMessage(user.id, { to: "+12025550146", body: "" })).rejects.toThrow(/segments/);
    await expect(queueMessage(user.id, { to: "+12025550146", body: "z".repeat(153 * 10 + 1) })).rejects.toThrow(
      /segments/,
    );
  });
});

/** Statements this process runs while `work` does. */
async function statementsOf(work: () => Promise<unknown>): Promise<number> {
  const before = workCounts().statements;
  await work();
  return workCounts().statements - before;
}

const numbers = (count: number, from: number) =>
  Array.from({ length: count }, (_, i) => `+1202555${String(from + i).padStart(4, "0")}`);

describe("queueMessages, a batch at a time", () => {
  it("runs as many statements for 200 messages as for one (the per-message work is one statement per batch)", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 201);
    const one = await statementsOf(() => queueMessages(user.id, [{ to: "+12025551000", body: "one" }]));
    const many = await statementsOf(() =>
      queueMessages(
        user.id,
        numbers(200, 1001).map((to, i) => ({ to, body: `message ${i}`, source: "api" as const, apiRef: `ref-${i}` })),
      ),
    );
    expect(many).toBe(one);
    expect(await getBalance(user.id)).toBe(0);
  });

  it("queues the batch endpoint's items with as many statements for 100 items as for 2", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 102);
    const items = (count: number, from: number) => numbers(count, from).map((to) => ({ to, body: "batch item" }));
    const two = await statementsOf(() => queueBatch(user.id, items(2, 1400)));
    const hundred = await statementsOf(() => queueBatch(user.id, items(100, 1500)));
    expect(hundred).toBe(two);
    expect(await getBalance(user.id)).toBe(0);
  });

  it("gives each message its own row, and each repeat the first one, with repeats within the batch, of earlier batches and keyless messages mixed", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 20);
    const earlier = await queueMessages(user.id, [
      { to: "+12025551101", body: "earlier api", source: "api", apiRef: "earlier" },
      {
        to: "+12025551102",
        body: "earlier tick",
        source: "schedule",
        scheduleId: 4101,
        occurrenceAt: 1_800_000_000_000,
      },
      { to: "+12025551103", body: "earlier member", source: "group", groupSendId: 4102, contactId: 7 },
    ]);
    const batch = [
      { to: "+12025551111", body: "plain one" },
      { to: "+12025551112", body: "new api", source: "api" as const, apiRef: "fresh" },
      { to: "+12025551113", body: "retried api", source: "api" as const, apiRef: "earlier" },
      { to: "+12025551114", body: "plain two" },
      { to: "+12025551115", body: "same ref again", source: "api" as const, apiRef: "fresh" },
      {
        to: "+12025551116",
        body: "retried tick",
        source: "schedule" as const,
        scheduleId: 4101,
        occurrenceAt: 1_800_000_000_000,
      },
      {
        to: "+12025551117",
        body: "next tick",
        source: "schedule" as const,
        scheduleId: 4101,
        occurrenceAt: 1_800_000_060_000,
      },
      { to: "+12025551118", body: "retried member", source: "group" as const, groupSendId: 4102, contactId: 7 },
      { to: "+12025551119", body: "member twice", source: "group" as const, groupSendId: 4102, contactId: 8 },
      { to: "+12025551120", body: "member twice", source: "group" as const, groupSendId: 4102, contactId: 8 },
      { to: "+12025551121", body: "plain three" },
    ];
    const { messages, credits } = await queueMessages(user.id, batch);

    expect(messages.map((m) => m.duplicate)).toEqual([
      false,
      false,
      true,
      false,
      true,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    const [api, tick, member] = earlier.messages.map((m) => m.id);
    expect(messages.map((m) => m.id)).toEqual([
      messages[0].id,
      messages[1].id,
      api,
      messages[3].id,
      messages[1].id,
      tick,
      messages[6].id,
      member,
      messages[8].id,
      messages[8].id,
      messages[10].id,
    ]);
    // Each new message is the row of its own recipient and text, with its outbox row and debit.
    const fresh = messages.filter((m) => !m.duplicate);
    expect(new Set(fresh.map((m) => m.id)).size).toBe(6);
    for (const message of fresh) {
      const input = batch[messages.indexOf(message)];
      expect(await messageRow(message.id)).toMatchObject({ toPhone: input.to, body: input.body, status: "queued" });
      expect(await outboxHas(message.id)).toBe(true);
    }
    expect(credits).toBe(6);
    expect(await getBalance(user.id)).toBe(20 - 3 - 6);
    expect(await getLedgerSum(user.id)).toBe(await getBalance(user.id));
    expect((await ledgerKeys(user.id)).filter((key) => key.startsWith("msg:"))).toHaveLength(9);
    expect(await messagesOf(user.id)).toBe(9);
  });

  it("stores every body as written, through the batch's JSON: quotes, backslashes, emoji, a NUL, a lone surrogate as U+FFFD", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    // PostgreSQL's text holds no NUL character at all (its UTF-8 text type refuses U+0000).
    const nul = usesPostgres() ? [] : ["nul\u0000x"];
    const bodies = ['say "hi" \\ back', "emoji 😀 and é", ...nul, "broken \ud800 half"];
    const { messages } = await queueMessages(
      user.id,
      bodies.map((body) => ({ to: "+12025551150", body })),
    );
    expect(await Promise.all(messages.map(async (m) => (await messageRow(m.id))?.body))).toEqual([
      ...bodies.slice(0, -1),
      "broken \ufffd half",
    ]);
  });

  it("refuses the whole batch naming every opted-out number, and writes nothing", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    await addOptOuts(user.id, ["+12025551201", "+12025551203"], "manual");
    const error = await queueMessages(
      user.id,
      ["+12025551201", "+12025551202", "+12025551203", "+12025551201"].map((to) => ({ to, body: "offer" })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptedOutError);
    expect((error as OptedOutError).message).toMatch(/\+12025551201.*\+12025551203/);
    expect(await messagesOf(user.id)).toBe(0);
    expect(await getBalance(user.id)).toBe(10);
  });

  it("sends an automatic keyword reply free, even to a number that opted out, beside paid messages", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 1);
    await addOptOuts(user.id, ["+12025551301"], "manual");
    const { messages, credits } = await queueMessages(user.id, [
      { to: "+12025551301", body: "You are unsubscribed.", source: "keyword", from: "SMSGateway" },
      { to: "+12025551302", body: "paid" },
    ]);
    expect(messages.map((m) => m.credits)).toEqual([0, 1]);
    expect(credits).toBe(1);
    expect(await messageRow(messages[0].id)).toMatchObject({
      source: "keyword",
      fromAddress: "SMSGateway",
      credits: 0,
    });
    expect((await ledgerKeys(user.id)).filter((key) => key.startsWith("msg:"))).toEqual([
      `msg:${messages[1].id}:debit`,
    ]);
    expect(await getBalance(user.id)).toBe(0);
  });
});

describe("concurrent sends against a small balance", () => {
  it("50 concurrent posts against 10 credits: exactly 10 queued, balance 0", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
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
    expect(await messagesOf(user.id)).toBe(10);
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
  });

  it("holds across processes writing the same database at once", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
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
    expect(await messagesOf(user.id)).toBe(10);
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
  }, 60_000);
});

describe("the send form's action", () => {
  it("queues the message and comes back to the form with the success toast", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 3);
    const result = (await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { phoneNumber: "(202) 555-0160", message: "Line one\r\nLine two" } }),
    )) as Response;
    expect(locationOf(result)).toBe("/sms/sendSms");
    expect(result.headers.get("Set-Cookie")).toContain("en_toast=");
    const row = await getDb().select().from(smsMessages).where(eq(smsMessages.userId, user.id)).get();
    // Stored in E.164, with the line break the browser counted.
    expect(row).toMatchObject({ toPhone: "+12025550160", body: "Line one\nLine two", segments: 1, status: "queued" });
    expect(await getBalance(user.id)).toBe(2);
  });

  it("answers from /sms/documentation too, and comes back there", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 1);
    const result = await call(
      documentationAction,
      makeRequest("/sms/documentation", { user, form: { phoneNumber: "+12025550161", message: "hi" } }),
    );
    expect(locationOf(result)).toBe("/sms/documentation");
  });

  it("says so inline when credits are short, and queues and debits nothing", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 1);
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
    expect(await messagesOf(user.id)).toBe(0);
    expect(await getBalance(user.id)).toBe(1);
  });

  it("names a bad number and refuses a message over the segment limit", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 100);
    const result = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { phoneNumber: "12345", message: "é".repeat(1531) } }),
    );
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error).toMatchObject({
      phoneNumber: ['"12345" is not a valid phone number'],
      message: ["Message is too long: 11 segments, the maximum is 10"],
    });
    expect(await messagesOf(user.id)).toBe(0);
  });

  it("checks the cost without sending (the counter without JavaScript)", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const result = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { user, form: { intent: "check", phoneNumber: "", message: "Привет" } }),
    );
    expect(statusOf(result)).toBe(200);
    expect(dataOf<Reply>(result).initialValue).toMatchObject({ intent: "check", message: "Привет" });
    expect(await messagesOf(user.id)).toBe(0);
    expect(await getBalance(user.id)).toBe(5);
  });

  it("asks for login first", async () => {
    expect(locationOf(await call(sendSmsLoader, makeRequest("/sms/sendSms")))).toMatch(/^\/login\?redirectTo=/);
    const posted = await call(
      sendSmsAction,
      makeRequest("/sms/sendSms", { form: { phoneNumber: "+12025550163", message: "hi" } }),
    );
    expect(locationOf(posted)).toMatch(/^\/login/);
    expect(
      (await getDb().select({ n: count() }).from(smsMessages).where(eq(smsMessages.toPhone, "+12025550163")).get())!.n,
    ).toBe(0);
  });
});
