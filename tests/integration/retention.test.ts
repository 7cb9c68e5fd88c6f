// MESSAGE_RETENTION_DAYS and SUPPORT_RETENTION_DAYS with an injected clock: the housekeeping job
// deletes exactly the finished messages and the support requests older than the window, in
// batches, and every balance stays what the ledger says. The admin's accounts list shows the
// database size and the retention.
import { afterEach, expect, it } from "vitest";
import { count, eq, inArray } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import { inboundMessages, inboundOutbox } from "#app/db/schema/inbound.ts";
import { smsMessages, smsOutbox } from "#app/db/schema/sms.ts";
import { smsSubmitAttempts } from "#app/db/schema/sms-attempts.ts";
import { supportRequests } from "#app/db/schema/support.ts";
import { getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { failMessage } from "#app/modules/sms/dispatch.server.ts";
import { insertSubmitAttempts } from "#app/modules/sms/message-store.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { submitSupportRequest } from "#app/modules/support/requests.server.ts";
import { loader as accountsLoader } from "#app/routes/admin/users.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { housekeeping } from "#worker/jobs/housekeeping.ts";
import { call, createTestUser, dataOf, makeRequest } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

const DAY = 86_400_000;
const now = Date.now();
afterEach(() => {
  resetClock();
  getEnv().MESSAGE_RETENTION_DAYS = undefined;
  getEnv().SUPPORT_RETENTION_DAYS = undefined;
});

async function messageAt(userId: number, daysAgo: number, status: "delivered" | "failed" | "queued") {
  setClock(() => now - daysAgo * DAY);
  const { id } = await queueMessage(userId, { to: "+12025550170", body: `${daysAgo} days ago` });
  // Failing refunds through the ledger, as the worker would; delivered is what a receipt leaves.
  if (status === "failed") await failMessage(id, "Refused by the carrier");
  if (status === "delivered")
    await getDb().update(smsMessages).set({ status: "delivered" }).where(eq(smsMessages.id, id)).run();
  resetClock();
  return id;
}

async function requestAt(daysAgo: number) {
  setClock(() => now - daysAgo * DAY);
  const saved = await submitSupportRequest({
    source: "contact",
    userId: null,
    name: "Ada",
    email: "ada@example.com",
    subject: `${daysAgo} days ago`,
    message: "Hello there, a question about my account.",
    ip: `198.51.100.${daysAgo}`,
  });
  resetClock();
  if (saved.status !== "saved") throw new Error(saved.status);
  return saved.id;
}

/** An inbound message as the SMPP transport stores it; `pending`: its keyword not processed yet. */
async function inboundAt(userId: number, daysAgo: number, pending = false): Promise<number> {
  const { id } = (await getDb()
    .insert(inboundMessages)
    .values({
      userId,
      fromPhone: "+12025550171",
      toAddress: "SMSGateway",
      body: "Thanks",
      encoding: "GSM-7",
      parts: 1,
      dedupeKey: `retention-${daysAgo}-${Math.random()}`,
      receivedAt: new Date(now - daysAgo * DAY),
    })
    .returning({ id: inboundMessages.id })
    .get())!;
  if (pending)
    await getDb()
      .insert(inboundOutbox)
      .values({ messageId: id, dueAt: new Date(now) })
      .run();
  return id;
}

const TABLES = { sms_messages: smsMessages, inbound_messages: inboundMessages, support_requests: supportRequests };
/** The ids among `ids` still in the table, in the order given. */
async function existing(table: keyof typeof TABLES, ids: number[]): Promise<number[]> {
  const t = TABLES[table];
  const found = new Set(
    (await getDb().select({ id: t.id }).from(t).where(inArray(t.id, ids)).all()).map((row) => row.id),
  );
  return ids.filter((id) => found.has(id));
}
const ledgerRows = async (userId: number) =>
  (await getDb().select({ n: count() }).from(creditLedger).where(eq(creditLedger.userId, userId)).get())!.n;
const runHousekeeping = () => housekeeping.process({ data: { v: 1 } } as never);

it("deletes finished messages and support requests older than the window, in batches, and the balance stays exact", async () => {
  const user = await createTestUser();
  await grantCredits(user.id, 20);
  const oldFinished = [
    await messageAt(user.id, 45, "delivered"),
    await messageAt(user.id, 40, "failed"),
    await messageAt(user.id, 35, "delivered"),
    await messageAt(user.id, 31, "delivered"),
    await messageAt(user.id, 31, "failed"),
  ];
  // Old but still on its way (a worker or a receipt may change it): kept.
  const oldQueued = await messageAt(user.id, 33, "queued");
  const recent = [await messageAt(user.id, 29, "delivered"), await messageAt(user.id, 1, "failed")];
  const balance = await getBalance(user.id);
  const entries = await ledgerRows(user.id);
  expect(balance).toBe(20 - 8 + 3);
  // Their journeys' submit attempts go with them.
  const attempt = { upstream: "default", bind: null, outcome: "accepted" as const, commandStatus: 0, error: null };
  await insertSubmitAttempts(
    [oldFinished[0], recent[0]].map((messageId) => ({ ...attempt, messageId, providerIds: [`p${messageId}`] })),
    now,
  );

  const oldInbound = [await inboundAt(user.id, 50), await inboundAt(user.id, 32)];
  const keptInbound = [await inboundAt(user.id, 40, true), await inboundAt(user.id, 2)];

  const oldRequests = [await requestAt(100), await requestAt(91)];
  const pendingMail = await requestAt(95);
  await getDb().update(supportRequests).set({ mailStatus: "pending" }).where(eq(supportRequests.id, pendingMail)).run();
  const recentRequest = await requestAt(89);

  getEnv().MESSAGE_RETENTION_DAYS = 30;
  getEnv().SUPPORT_RETENTION_DAYS = 90;
  const { applyRetention } = await import("#app/modules/housekeeping/retention.server.ts");
  // Batches of two: the walk goes on past a batch that is all old, and stops inside the window.
  expect(await applyRetention(2)).toEqual({ messages: 5, inboundMessages: 2, supportRequests: 2, webhookEvents: 0 });

  expect(await existing("sms_messages", oldFinished)).toEqual([]);
  const attempts = await getDb().select({ messageId: smsSubmitAttempts.messageId }).from(smsSubmitAttempts).all();
  expect(attempts.filter((row) => [oldFinished[0], recent[0]].includes(row.messageId))).toEqual([
    { messageId: recent[0] },
  ]);
  expect(await existing("sms_messages", [oldQueued, ...recent])).toEqual([oldQueued, ...recent]);
  expect(await getDb().select({ n: count() }).from(smsOutbox).where(eq(smsOutbox.messageId, oldQueued)).get()).toEqual({
    n: 1,
  });
  // Inbound too, but not one whose STOP or START is still to be processed.
  expect(await existing("inbound_messages", oldInbound)).toEqual([]);
  expect(await existing("inbound_messages", keptInbound)).toEqual(keptInbound);
  expect(await existing("support_requests", oldRequests)).toEqual([]);
  expect(await existing("support_requests", [pendingMail, recentRequest])).toEqual([pendingMail, recentRequest]);

  // The ledger keeps every debit and refund of the deleted messages: the balance is what it was.
  expect(await getBalance(user.id)).toBe(balance);
  expect(await getLedgerSum(user.id)).toBe(balance);
  expect(await ledgerRows(user.id)).toBe(entries);

  // The hourly job does the same, and a second run finds nothing more.
  expect(await runHousekeeping()).toMatchObject({ messages: 0, inboundMessages: 0, supportRequests: 0 });
  setClock(() => now + 2 * DAY);
  expect(await runHousekeeping()).toMatchObject({ messages: 1, supportRequests: 1 });
  expect(await existing("sms_messages", recent)).toEqual([recent[1]]);
  expect(await getBalance(user.id)).toBe(balance);
});

it("shows the database size and the retention to admins on the accounts list", async () => {
  const admin = await createTestUser("admin");
  getEnv().MESSAGE_RETENTION_DAYS = 30;
  const data = dataOf(await call(accountsLoader, makeRequest("/admin/users", { user: admin }))) as {
    database: { bytes: number; freeBytes: number; retention: { messageDays?: number; supportDays?: number } };
  };
  expect(data.database.bytes).toBeGreaterThan(0);
  expect(data.database.retention).toEqual({ messageDays: 30, supportDays: undefined });
});

// Last: its old rows would count in the tests above.
it("unset, nothing is deleted however old", async () => {
  const user = await createTestUser();
  await grantCredits(user.id, 5);
  const ids = [await messageAt(user.id, 4000, "delivered"), await messageAt(user.id, 3000, "failed")];
  const request = await requestAt(4000 / 100);
  await runHousekeeping();
  expect(await existing("sms_messages", ids)).toEqual(ids);
  expect(await existing("support_requests", [request])).toEqual([request]);
});
