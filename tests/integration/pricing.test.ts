// The price per destination (decision 134): the longest prefix wins, the list is cached and read
// again when it changes, and every path that counts credits charges and quotes by it: a single send,
// a batch, the API's quote, a group's cost check and fan-out, a schedule; a refund gives back what
// was charged. The file's prices: +44 at 2, +44 7911 at 3, +1 202 555 1xxx at 3, everything else 1.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import { destinationPrices } from "#app/db/schema/pricing.ts";
import { orders } from "#app/db/schema/shop.ts";
import { getBalance, InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { quoteTemplatedGroupSend } from "#app/modules/group-sends/group-quote.server.ts";
import { creditsPerSegmentIn } from "#app/modules/pricing/price-list.ts";
import {
  currentPriceList,
  deletePrice,
  importPrices,
  listPrices,
  revenueByDestination,
  revenuePerCredit,
  savePrice,
} from "#app/modules/pricing/prices.server.ts";
import { createSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { failMessage } from "#app/modules/sms/dispatch.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { queueBatch } from "#app/modules/sms/send-batch.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { seedGroup } from "#tests/support/contacts.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, messageRow } from "#tests/support/sms.ts";

const UK_MOBILE = "+447911123456";
const UK_LANDLINE = "+442071234567";
const US = "+12025550100";
const TWO_SEGMENTS = "x".repeat(200);

async function ledgerOf(userId: number) {
  return await getDb()
    .select({ key: creditLedger.key, amount: creditLedger.amount })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(creditLedger.id)
    .all();
}

async function customer(credits: number) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  return user;
}

beforeAll(async () => {
  // Nothing configured: 1 credit per segment everywhere, as before prices existed.
  expect(creditsPerSegmentIn(await currentPriceList(), UK_MOBILE)).toBe(1);
  await savePrice({ prefix: "44", creditsPerSegment: 2 });
  await savePrice({ prefix: "447911", creditsPerSegment: 3 });
  await savePrice({ prefix: "12025551", creditsPerSegment: 3 });
});

describe("the look-up", () => {
  it("takes the longest matching prefix, else 1, and sees each change at once in this process", async () => {
    const list = await currentPriceList();
    expect(creditsPerSegmentIn(list, UK_MOBILE)).toBe(3);
    expect(creditsPerSegmentIn(list, UK_LANDLINE)).toBe(2);
    expect(creditsPerSegmentIn(list, US)).toBe(1);
    expect(creditsPerSegmentIn(list, "+12025551000")).toBe(3);
    // The list is kept: asked again, the same list without reading the rows.
    expect(await currentPriceList()).toBe(list);

    await savePrice({ prefix: "*", creditsPerSegment: 4 });
    expect(creditsPerSegmentIn(await currentPriceList(), US)).toBe(4);
    expect(creditsPerSegmentIn(await currentPriceList(), UK_MOBILE)).toBe(3);
    expect(await deletePrice("*")).toBe(true);
    expect(await deletePrice("*")).toBe(false);
    expect(creditsPerSegmentIn(await currentPriceList(), US)).toBe(1);
  });
});

describe("a send to a 3-credit prefix", () => {
  it("debits 3 per segment in the ledger, and a failure before the carrier refunds all of it", async () => {
    const user = await customer(10);
    const sent = await queueMessage(user.id, { to: UK_MOBILE, body: TWO_SEGMENTS });
    expect(sent).toMatchObject({ segments: 2, credits: 6 });
    expect((await messageRow(sent.id))?.credits).toBe(6);
    expect(await ledgerOf(user.id)).toContainEqual({ key: `msg:${sent.id}:debit`, amount: -6 });
    expect(await getBalance(user.id)).toBe(4);

    expect(await failMessage(sent.id, "Refused by the test")).toBe(true);
    expect(await ledgerOf(user.id)).toContainEqual({ key: `msg:${sent.id}:refund`, amount: 6 });
    expect(await getBalance(user.id)).toBe(10);
  });

  it("is refused whole when the balance pays 1 per segment but not the destination's price", async () => {
    const user = await customer(3);
    const error = await queueMessage(user.id, { to: UK_MOBILE, body: TWO_SEGMENTS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ needed: 6, balance: 3 });
    expect(await getBalance(user.id)).toBe(3);
  });

  it("is quoted at 3 per segment by the API, and the API's send charges the quote", async () => {
    const user = await apiCustomer(20);
    const quote = await callApi("POST", "/api/v1/messages/quote", {
      key: user.key,
      json: { body: TWO_SEGMENTS, to: "+44 7911 123456" },
    });
    expect(quote.status).toBe(200);
    expect(quote.json).toMatchObject({ segments: 2, credits: 6, items: [{ creditsPerSegment: 3, credits: 6 }] });
    // Without a recipient: the price of destinations without their own.
    const unaddressed = await callApi("POST", "/api/v1/messages/quote", { key: user.key, json: { body: "Hi" } });
    expect(unaddressed.json).toMatchObject({ credits: 1, items: [{ creditsPerSegment: 1 }] });

    const sent = await callApi("POST", "/api/v1/messages", {
      key: user.key,
      json: { to: UK_MOBILE, body: TWO_SEGMENTS },
    });
    expect(sent.status).toBe(201);
    expect(sent.json.credits).toBe(quote.json.credits);
    expect(await getBalance(user.id)).toBe(14);
  });
});

describe("a batch", () => {
  it("is quoted and charged recipient by recipient", async () => {
    const user = await apiCustomer(20);
    const messages = [{ to: UK_MOBILE }, { to: UK_LANDLINE }, { to: US }];
    const quote = await callApi("POST", "/api/v1/messages/quote", { key: user.key, json: { body: "Hi", messages } });
    expect(quote.json).toMatchObject({ messages: 3, credits: 6 });
    expect(quote.json.items.map((item: { credits: number }) => item.credits)).toEqual([3, 2, 1]);

    const result = await queueBatch(user.id, [
      { to: UK_MOBILE, body: "Hi" },
      { to: UK_LANDLINE, body: "Hi" },
      { to: US, body: "Hi" },
    ]);
    expect(result.credits).toBe(6);
    expect(result.outcomes.map((o) => (o.queued ? o.message.credits : null))).toEqual([3, 2, 1]);
    expect(await getBalance(user.id)).toBe(14);
  });

  it("refuses the recipient the balance cannot pay at its price, and the ones after it", async () => {
    const user = await customer(4);
    const result = await queueBatch(user.id, [
      { to: US, body: "Hi" },
      { to: UK_MOBILE, body: "Hi" },
      { to: US, body: "Hi" },
    ]);
    expect(result.outcomes.map((o) => (o.queued ? "queued" : o.code))).toEqual([
      "queued",
      "queued",
      "insufficient_credits",
    ]);
    expect(await getBalance(user.id)).toBe(0);
  });
});

describe("a group", () => {
  // +1 202 555 1998 and 1999 cost 3 a segment, 2000 costs 1: 7 credits for one segment each.
  async function pricedGroup(credits: number) {
    const user = await customer(credits);
    const { groupId } = await seedGroup(user.id, 3, 1998);
    return { user, groupId };
  }

  it("is quoted member by member and its fan-out charges each member's price", async () => {
    const { user, groupId } = await pricedGroup(7);
    expect(await quoteTemplatedGroupSend(user.id, groupId, "Hi")).toMatchObject({ messages: 3, credits: 7 });
    const started = await startGroupSend(user.id, groupId, "Hi");
    const report = await runGroupSend(started.id);
    expect(report).toMatchObject({ status: "done", queued: 3, credits: 7 });
    expect(await getBalance(user.id)).toBe(0);
  });

  it("is refused before it starts when the members' prices add up to more than the balance", async () => {
    const { user, groupId } = await pricedGroup(6);
    const error = await startGroupSend(user.id, groupId, "Hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ needed: 7, balance: 6 });
  });
});

describe("a schedule", () => {
  it("checks the destination's price when it is made", async () => {
    const user = await customer(2);
    const schedule = (to: string) =>
      createSchedule(user.id, {
        target: { kind: "phone", to },
        body: "Reminder",
        repeat: "none",
        firstSendAt: Date.now() + 3_600_000,
        timeZone: "Europe/London",
      });
    await expect(schedule(UK_MOBILE)).rejects.toMatchObject({ needed: 3, balance: 2 });
    await expect(schedule(UK_LANDLINE)).resolves.toMatchObject({ status: "active" });
  });

  it("to a group checks the members' prices", async () => {
    const user = await customer(6);
    const { groupId } = await seedGroup(user.id, 3, 1998);
    const error = await createSchedule(user.id, {
      target: { kind: "group", groupId },
      body: "Reminder",
      repeat: "none",
      firstSendAt: Date.now() + 3_600_000,
      timeZone: "Europe/London",
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ needed: 7, balance: 6 });
  });
});

describe("the CSV import", () => {
  it("names every bad line and imports nothing, then imports a good file in one go", async () => {
    const before = await listPrices();
    const bad = ["prefix,credits_per_segment", "+33,2", "+34,zero", "abc,1", "+35,0", "+33,4", "+36", "+37,1.5"].join(
      "\n",
    );
    const result = await importPrices(bad);
    expect(result).toEqual({
      errors: [
        { line: 3, message: "Credits per segment must be a number" },
        { line: 4, message: "A prefix is digits after an optional +, such as +44 7700, or *" },
        { line: 5, message: "Credits per segment is at least 1" },
        { line: 6, message: "The prefix +33 is already on line 2" },
        { line: 7, message: "Expected 2 values (prefix,credits_per_segment), found 1" },
        { line: 8, message: "Credits per segment is a whole number" },
      ],
    });
    expect(await listPrices()).toEqual(before);
    expect(await importPrices("prefix,credits\n+33,2")).toEqual({
      errors: [{ line: 1, message: "The first line must be prefix,credits_per_segment" }],
    });

    expect(await importPrices("prefix,credits_per_segment\n+33,2\n+34 6,5\n")).toEqual({ imported: 2 });
    const list = await currentPriceList();
    expect(creditsPerSegmentIn(list, "+33612345678")).toBe(2);
    expect(creditsPerSegmentIn(list, "+34612345678")).toBe(5);
    expect(creditsPerSegmentIn(list, UK_MOBILE)).toBe(3);
    await getDb().delete(destinationPrices).where(eq(destinationPrices.prefix, "33")).run();
    await deletePrice("346");
  });
});

describe("revenue by destination", () => {
  it("sums the credits charged by each number's matching prefix, net of refunds", async () => {
    // A period of its own: the other tests' messages are not in it.
    const start = Date.parse("2030-01-01T00:00:00Z");
    setClock(() => start);
    try {
      const user = await customer(20);
      await queueMessage(user.id, { to: "+447911123555", body: "Hi" });
      await queueMessage(user.id, { to: "+447911123556", body: TWO_SEGMENTS });
      const refunded = await queueMessage(user.id, { to: "+442071234000", body: "Hi" });
      await failMessage(refunded.id, "Refused by the test");
      await queueMessage(user.id, { to: "+442071234001", body: "Hi" });
      await queueMessage(user.id, { to: US, body: "Hi" });
      expect(await revenueByDestination(start, start + 1)).toEqual([
        { prefix: "447911", messages: 2, credits: 9, revenueCents: null },
        { prefix: "44", messages: 2, credits: 2, revenueCents: null },
        { prefix: "*", messages: 1, credits: 1, revenueCents: null },
      ]);
      // Credits sold for 5 cents each, net of a refund; an order never paid does not count.
      const order = (totalCents: number, totalCredits: number, refundedCents: number, confirmed: boolean) => ({
        userId: user.id,
        pickupName: "A",
        pickupEmail: "a@example.com",
        pickupPhone: US,
        totalCents,
        totalItems: 1,
        totalCredits,
        status: confirmed ? ("Confirmed" as const) : ("Pending" as const),
        refundedCents,
        createdAt: new Date(start),
        confirmedAt: confirmed ? new Date(start) : null,
      });
      await getDb()
        .insert(orders)
        .values([order(5000, 1000, 0, true), order(2000, 200, 1000, true), order(9900, 10, 0, false)])
        .run();
      expect(await revenuePerCredit()).toBe(5);
      expect((await revenueByDestination(start, start + 1)).map((row) => row.revenueCents)).toEqual([45, 10, 5]);
    } finally {
      resetClock();
    }
  });
});
