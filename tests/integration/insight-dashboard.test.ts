import { readFileSync, readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { getDb, getSqlite, withTx } from "#app/db/client.server.ts";
import { inboundMessages } from "#app/db/schema/inbound.ts";
import { orders } from "#app/db/schema/shop.ts";
import { takeBack } from "#app/modules/credits/ledger.server.ts";
import { setUserTimeZone } from "#app/modules/auth/users.server.ts";
import { getAdminOverview } from "#app/modules/insight/admin-overview.server.ts";
import { getDashboard } from "#app/modules/insight/dashboard.server.ts";
import { applyReceipts, claimMessage, failMessage, recordAccepted } from "#app/modules/sms/dispatch.server.ts";
import { claimQueued, markSubmitted, moveMessages } from "#app/modules/sms/message-store.server.ts";
import { queueMessage, queueMessages, recordUnsentMessage } from "#app/modules/sms/send.server.ts";
import { applyInboundKeyword } from "#app/modules/inbound/keywords.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { loader as adminLoader } from "#app/routes/admin/overview.tsx";
import { loader as dashboardLoader } from "#app/routes/sms/dashboard.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { call, createTestUser, dataOf, makeRequest } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";
import { itOnSqlite } from "#tests/support/engines.ts";

afterEach(() => resetClock());

const at = (iso: string) => Date.parse(iso);

/** Queues one message as if sent at `iso`. */
async function sendAt(userId: number, iso: string, body = "Hello") {
  setClock(() => at(iso));
  return (await queueMessage(userId, { to: "+12025550180", body })).id;
}

async function deliver(id: number, status: "delivered" | "undelivered" = "delivered") {
  await claimQueued([id], Date.now());
  await markSubmitted([id], Date.now());
  await moveMessages([{ id, from: "submitted", status, error: null }], Date.now());
}

async function receiveAt(userId: number | null, iso: string) {
  await getDb()
    .insert(inboundMessages)
    .values({
      userId,
      fromPhone: "+12025550199",
      toAddress: "Bench",
      body: "Hi",
      encoding: "GSM-7",
      parts: 1,
      dedupeKey: `${iso}:${Math.random()}`,
      receivedAt: new Date(at(iso)),
    })
    .run();
}

const byDate = <Day extends { date: string }>(days: Day[]): Record<string, Omit<Day, "date">> =>
  Object.fromEntries(days.map(({ date, ...counts }) => [date, counts]));

describe("dashboard chart data", () => {
  it("counts messages per local day by outcome, inbound, and credits spent net of refunds", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 100);
    await setUserTimeZone(user.id, "UTC");
    const delivered = await sendAt(user.id, "2026-05-10T08:00:00Z");
    const undelivered = await sendAt(user.id, "2026-05-10T09:00:00Z");
    const failed = await sendAt(user.id, "2026-05-11T10:00:00Z");
    await sendAt(user.id, "2026-05-11T11:00:00Z"); // stays queued
    await sendAt(user.id, "2026-05-11T12:00:00Z", "ж".repeat(80)); // two UCS-2 segments, queued
    await sendAt(user.id, "2026-05-01T12:00:00Z"); // before the period
    await deliver(delivered);
    await deliver(undelivered, "undelivered");
    setClock(() => at("2026-05-11T13:00:00Z"));
    await failMessage(failed, "Refused");
    await receiveAt(user.id, "2026-05-11T14:00:00Z");
    await receiveAt(null, "2026-05-11T14:00:00Z"); // nobody's: not on any account's dashboard

    const other = await createTestUser();
    await grantCredits(other.id, 10);
    await sendAt(other.id, "2026-05-11T12:00:00Z");

    const dashboard = await getDashboard(user.id, 7, "UTC", at("2026-05-12T06:00:00Z"));
    expect(dashboard.perDay.map((d) => d.date)).toEqual([
      "2026-05-06",
      "2026-05-07",
      "2026-05-08",
      "2026-05-09",
      "2026-05-10",
      "2026-05-11",
      "2026-05-12",
    ]);
    const days = byDate(dashboard.perDay);
    expect(days["2026-05-10"]).toEqual({ delivered: 1, failed: 1, pending: 0, inbound: 0, credits: 2 });
    // The refused message's refund came back the same day: 3 credits debited (1 + 2), 1 refunded.
    expect(days["2026-05-11"]).toEqual({ delivered: 0, failed: 1, pending: 2, inbound: 1, credits: 3 });
    expect(days["2026-05-09"]).toEqual({ delivered: 0, failed: 0, pending: 0, inbound: 0, credits: 0 });
    expect(dashboard.totals).toEqual({
      sent: 5,
      delivered: 1,
      failed: 2,
      pending: 2,
      inbound: 1,
      creditsSpent: 5,
      deliveryRate: 1 / 3,
    });
  });

  it("starts each day at local midnight: the zone's day boundary, 23 and 25-hour days, +5:45", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 100);
    // New York springs forward on 2026-03-08 (a 23-hour day, 05:00Z to 04:00Z next day).
    await sendAt(user.id, "2026-03-08T04:59:00Z"); // 23:59 EST on 03-07
    await sendAt(user.id, "2026-03-08T05:00:00Z"); // 00:00 EST on 03-08
    await sendAt(user.id, "2026-03-09T03:59:00Z"); // 23:59 EDT on 03-08
    await sendAt(user.id, "2026-03-09T04:00:00Z"); // 00:00 EDT on 03-09
    const spring = byDate((await getDashboard(user.id, 7, "America/New_York", at("2026-03-10T12:00:00Z"))).perDay);
    expect([spring["2026-03-07"].pending, spring["2026-03-08"].pending, spring["2026-03-09"].pending]).toEqual([
      1, 2, 1,
    ]);

    // And falls back on 2026-11-01 (a 25-hour day, 04:00Z to 05:00Z next day).
    await sendAt(user.id, "2026-11-01T03:59:00Z"); // 23:59 EDT on 10-31
    await sendAt(user.id, "2026-11-01T04:00:00Z"); // 00:00 EDT on 11-01
    await sendAt(user.id, "2026-11-02T04:59:00Z"); // 23:59 EST on 11-01
    await sendAt(user.id, "2026-11-02T05:00:00Z"); // 00:00 EST on 11-02
    const fall = byDate((await getDashboard(user.id, 7, "America/New_York", at("2026-11-03T12:00:00Z"))).perDay);
    expect([fall["2026-10-31"].pending, fall["2026-11-01"].pending, fall["2026-11-02"].pending]).toEqual([1, 2, 1]);

    // Kathmandu is 5:45 ahead: midnight on 03-09 is 18:15Z on 03-08.
    const nepal = byDate((await getDashboard(user.id, 7, "Asia/Kathmandu", at("2026-03-10T12:00:00Z"))).perDay);
    await sendAt(user.id, "2026-03-05T18:14:00Z"); // 23:59 on 03-05
    await sendAt(user.id, "2026-03-05T18:15:00Z"); // 00:00 on 03-06
    const after = byDate((await getDashboard(user.id, 7, "Asia/Kathmandu", at("2026-03-10T12:00:00Z"))).perDay);
    expect(after["2026-03-05"].pending - nepal["2026-03-05"].pending).toBe(1);
    expect(after["2026-03-06"].pending - nepal["2026-03-06"].pending).toBe(1);
  });

  // The backfill is drizzle/'s SQLite migration; PostgreSQL's baseline starts with an empty rollup.
  itOnSqlite("backfills the rollup from the rows already there (the migration's own SQL)", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 100);
    await deliver(await sendAt(user.id, "2026-06-01T10:00:00Z"));
    await sendAt(user.id, "2026-06-01T10:20:00Z");
    setClock(() => at("2026-06-02T10:00:00Z"));
    await failMessage(await sendAt(user.id, "2026-06-02T09:00:00Z"), "Refused");
    await receiveAt(user.id, "2026-06-02T11:00:00Z");
    // Set-based writes count what they wrote: a replayed API reference nothing, an unsent record as
    // failed, a batch of receipts (one moving within "pending"), a debit taken back.
    setClock(() => at("2026-06-02T12:00:00Z"));
    const batch = [
      { to: "+12025550181", body: "One", apiRef: "rollup-1" },
      { to: "+12025550182", body: "Two", apiRef: "rollup-2" },
    ];
    const [first, second] = (await queueMessages(user.id, batch)).messages.map((m) => m.id);
    expect((await queueMessages(user.id, batch)).messages.every((m) => m.duplicate)).toBe(true);
    await recordUnsentMessage(user.id, { to: "+12025550183", body: "Unpaid" }, "Not enough credits");
    const third = await sendAt(user.id, "2026-06-02T12:30:00Z");
    for (const id of [first, second, third]) {
      expect(await claimMessage(id)).toBe(true);
      await recordAccepted(id, [{ part: 1, providerId: `rollup-${id}` }]);
    }
    await applyReceipts([
      { providerId: `rollup-${first}`, status: "delivered", error: null },
      { providerId: `rollup-${second}`, status: "undelivered", error: "001" },
      { providerId: `rollup-${third}`, status: "unknown", error: null },
    ]);
    await withTx(
      async (tx) => await takeBack(tx, { userId: user.id, kind: "reversal", wanted: 5, key: "rollup-take-back" }),
    );
    // A refund can bring a bucket back to 0, where the backfill writes no row.
    const rollup = () =>
      getSqlite()
        .prepare(
          "select * from message_rollup where pending + delivered + failed + inbound + credits != 0 order by user_id, bucket",
        )
        .all();
    const kept = rollup();
    const file = readdirSync("drizzle").find((name) => name.endsWith("_message_rollup_triggers.sql"))!;
    const backfill = readFileSync(`drizzle/${file}`, "utf8")
      .split("--> statement-breakpoint")
      .filter((sql) => sql.trim().startsWith("INSERT INTO `message_rollup`"));
    expect(backfill).toHaveLength(3);
    getSqlite().exec("delete from message_rollup");
    for (const sql of backfill) getSqlite().exec(sql);
    expect(rollup()).toEqual(kept);
  });
});

describe("dashboard page", () => {
  it("takes its period from ?days= (7, 30 or 90; anything else is 7) in the user's zone", async () => {
    const user = await createTestUser();
    await setUserTimeZone(user.id, "Asia/Kathmandu");
    const days = async (search: string) =>
      dataOf<{ days: number; perDay: unknown[]; timeZone: string }>(
        await call(dashboardLoader, makeRequest(`/sms/dashboard${search}`, { user })),
      );
    expect(await days("?days=30")).toMatchObject({ days: 30, timeZone: "Asia/Kathmandu" });
    expect((await days("?days=90")).perDay).toHaveLength(90);
    expect((await days("?days=abc")).days).toBe(7);
    expect((await days("")).perDay).toHaveLength(7);
  });

  it("sends a guest to the login", async () => {
    const response = (await call(dashboardLoader, makeRequest("/sms/dashboard"))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});

describe("admin overview", () => {
  it("sums every account's messages and sales per day, and ranks the senders", async () => {
    const [busy, quiet] = [await createTestUser(), await createTestUser()];
    await grantCredits(busy.id, 100);
    await grantCredits(quiet.id, 100);
    const base = getAdminOverview(7, "UTC", at("2026-07-12T12:00:00Z"));
    const before = byDate((await base).perDay);
    for (let i = 0; i < 3; i++) await deliver(await sendAt(busy.id, `2026-07-10T1${i}:00:00Z`));
    await sendAt(quiet.id, "2026-07-11T10:00:00Z");
    const insertOrder = async (
      userId: number,
      totalCents: number,
      totalCredits: number,
      status: "Confirmed" | "Refunded" | "Pending",
      refundedCents: number,
      createdAt: number,
      confirmedAt: number | null,
    ) =>
      await getDb()
        .insert(orders)
        .values({
          userId,
          pickupName: "A",
          pickupEmail: "a@example.com",
          pickupPhone: "+12025550100",
          totalCents,
          totalItems: 1,
          totalCredits,
          status,
          refundedCents,
          createdAt: new Date(createdAt),
          confirmedAt: confirmedAt === null ? null : new Date(confirmedAt),
        })
        .run();
    await insertOrder(busy.id, 4000, 1000, "Confirmed", 0, at("2026-07-10T09:00:00Z"), at("2026-07-10T09:05:00Z"));
    await insertOrder(quiet.id, 2000, 500, "Refunded", 500, at("2026-07-11T09:00:00Z"), at("2026-07-11T09:05:00Z"));
    await insertOrder(quiet.id, 9900, 9000, "Pending", 0, at("2026-07-11T09:00:00Z"), null);

    const overview = await getAdminOverview(7, "UTC", at("2026-07-12T12:00:00Z"));
    const after = byDate(overview.perDay);
    expect(after["2026-07-10"].delivered - before["2026-07-10"].delivered).toBe(3);
    expect(after["2026-07-11"].pending - before["2026-07-11"].pending).toBe(1);
    const sales = Object.fromEntries(overview.sales.map(({ date, ...day }) => [date, day]));
    expect(sales["2026-07-10"]).toEqual({ revenueCents: 4000, creditsSold: 1000, orders: 1 });
    expect(sales["2026-07-11"]).toEqual({ revenueCents: 1500, creditsSold: 500, orders: 1 });
    const ranks = overview.busiest.map((row) => row.userId);
    expect(ranks.indexOf(busy.id)).toBeGreaterThanOrEqual(0);
    expect(ranks.indexOf(busy.id)).toBeLessThan(ranks.indexOf(quiet.id));
    expect(overview.busiest.find((row) => row.userId === busy.id)).toMatchObject({ sent: 3, email: busy.email });
    expect(overview.system.database.bytes).toBeGreaterThan(0);
    expect(overview.system.queues?.length).toBeGreaterThan(0);
    expect(overview.system.workers).toMatchObject({ alive: expect.any(Number) });
  });

  it("shows per account the share of its recipients who answered STOP, the highest first", async () => {
    const [provoking, careful, other] = [await createTestUser(), await createTestUser(), await createTestUser()];
    for (const user of [provoking, careful, other]) await grantCredits(user.id, 100);
    const sendTo = async (userId: number, phone: string, iso: string) => {
      setClock(() => at(iso));
      await queueMessage(userId, { to: phone, body: "Offer" });
    };
    // Four recipients each on the shared sender; two of the provoking account's answer STOP, one of the careful one's.
    for (let i = 0; i < 4; i++) {
      await sendTo(provoking.id, `+1202555071${i}`, "2026-08-10T09:00:00Z");
      await sendTo(careful.id, `+1202555072${i}`, "2026-08-10T09:00:00Z");
    }
    // Another account writes to one of them after the STOP: it provoked nothing.
    await sendTo(other.id, "+12025550710", "2026-08-11T09:00:00Z");
    const stop = (phone: string, iso: string) =>
      applyInboundKeyword({
        phone,
        toAddress: getEnv().SMPP_SOURCE_ADDR,
        accountId: null,
        body: "STOP",
        receivedAt: at(iso),
      });
    await stop("+12025550710", "2026-08-10T10:00:00Z");
    await stop("+12025550711", "2026-08-10T10:00:00Z");
    await stop("+12025550720", "2026-08-10T10:00:00Z");

    const { optOuts } = await getAdminOverview(7, "UTC", at("2026-08-12T12:00:00Z"));
    const ours = optOuts.filter((row) => [provoking.id, careful.id, other.id].includes(row.userId));
    expect(ours).toEqual([
      { userId: provoking.id, fullName: provoking.fullName, email: provoking.email, recipients: 4, stopped: 2 },
      { userId: careful.id, fullName: careful.fullName, email: careful.email, recipients: 4, stopped: 1 },
    ]);
  });

  it("is for admins: a customer is sent to access denied, a guest to the login", async () => {
    const admin = await createTestUser("admin");
    const data = dataOf<{ days: number; busiest: unknown[] }>(
      await call(adminLoader, makeRequest("/admin?days=30", { user: admin })),
    );
    expect(data.days).toBe(30);
    const customer = await createTestUser();
    const denied = (await call(adminLoader, makeRequest("/admin", { user: customer }))) as Response;
    expect(denied.status).toBe(302);
    expect(denied.headers.get("Location")).toBe("/accessDenied");
    const guest = (await call(adminLoader, makeRequest("/admin"))) as Response;
    expect(guest.headers.get("Location")).toMatch(/^\/login/);
  });
});
