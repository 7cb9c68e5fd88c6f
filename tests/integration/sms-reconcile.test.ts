// The worker's record keeping around the transport: claims, early receipts, the simulator and the
// reconciler that repairs what a crash leaves behind.
import { afterEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { smsOutbox, smsPendingReceipts } from "#app/db/schema/sms.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import {
  applyReceipts,
  claimMessage,
  recordAccepted,
  requeueMessage,
  sendQueuedMessage,
} from "#app/modules/sms/dispatch.server.ts";
import { postponeOutboxRows, selectStaleOutboxRows } from "#app/modules/sms/message-store.server.ts";
import { INTERRUPTED_REASON, MAX_REQUEUES, OUTBOX_GRACE_MS, reconcileSms } from "#app/modules/sms/reconcile.server.ts";
import { queueMessage, queueMessages } from "#app/modules/sms/send.server.ts";
import { workCounters } from "#app/utils/work-counts.server.ts";
import { SIMULATOR_NUMBERS, SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { createTestUser } from "#tests/support/requests.ts";
import {
  grantCredits,
  ledgerKeys,
  messageParts,
  messageRow,
  outboxHas,
  sendJobsFor,
  waitForStatus,
} from "#tests/support/sms.ts";

const simulator = new SimulatorTransport({ dlrMs: 5, onReceipts: applyReceipts });

afterEach(() => resetClock());

/** Runs the reconciler as if `ms` had passed. */
function reconcileAfter(ms: number) {
  const start = Date.now();
  setClock(() => start + ms);
  return reconcileSms();
}

async function queuedMessage(to = "+12025550170", body = "hello") {
  const user = await createTestUser();
  await grantCredits(user.id, 5);
  const message = await queueMessage(user.id, { to, body });
  return { user, id: message.id };
}

describe("sending a queued message", () => {
  it("is claimed by one worker only: a second run of the same message sends nothing", async () => {
    const { id } = await queuedMessage();
    const outcomes = await Promise.all([sendQueuedMessage(simulator, id), sendQueuedMessage(simulator, id)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["skipped", "submitted"]);
    expect(await messageParts(id)).toHaveLength(1);
    expect(await outboxHas(id)).toBe(false);
    await waitForStatus(id, "delivered");
    expect(await sendQueuedMessage(simulator, id)).toEqual({ kind: "skipped" });
  });

  it("keeps a receipt that arrives before the submit is recorded and applies it then", async () => {
    const { id } = await queuedMessage();
    await applyReceipts([{ providerId: "early-1", status: "delivered", error: null }]);
    expect((await getDb().select().from(smsPendingReceipts).all()).map((r) => r.providerId)).toContain("early-1");
    expect(await claimMessage(id)).toBe(true);
    await recordAccepted(id, [{ part: 1, providerId: "early-1" }]);
    expect((await messageRow(id))?.status).toBe("delivered");
    expect((await getDb().select().from(smsPendingReceipts).all()).map((r) => r.providerId)).not.toContain("early-1");
  });

  it("goes back to the queue after a temporary error, keeping the parts already accepted", async () => {
    const { id } = await queuedMessage("+12025550171", "p".repeat(300));
    expect(await claimMessage(id)).toBe(true);
    await requeueMessage(id, "SMSC busy", [{ part: 2, providerId: "kept-2" }]);
    expect(await messageRow(id)).toMatchObject({ status: "queued", error: "Retrying: SMSC busy" });
    expect(await outboxHas(id)).toBe(true);
    await sendQueuedMessage(simulator, id);
    // Only part 1 went again; part 2 kept its provider id.
    expect((await messageParts(id)).map((p) => [p.part, p.providerId.startsWith("sim-")])).toEqual([
      [1, true],
      [2, false],
    ]);
  });
});

describe("the simulator's numbers", () => {
  it("rejects, refunds, reports undelivered or stays silent as docs/features/sending-sms.md says", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 3);
    const rejected = await queueMessage(user.id, { to: SIMULATOR_NUMBERS.rejected, body: "a" });
    const undelivered = await queueMessage(user.id, { to: SIMULATOR_NUMBERS.undelivered, body: "b" });
    const silent = await queueMessage(user.id, { to: SIMULATOR_NUMBERS.noReceipt, body: "c" });
    for (const m of [rejected, undelivered, silent]) await sendQueuedMessage(simulator, m.id);
    expect(await messageRow(rejected.id)).toMatchObject({
      status: "failed",
      error: "Rejected by the carrier (simulated): invalid destination",
    });
    expect(await ledgerKeys(user.id)).toContain(`msg:${rejected.id}:refund`);
    expect(await getBalance(user.id)).toBe(1);
    await waitForStatus(undelivered.id, "undelivered");
    expect((await messageRow(undelivered.id))?.error).toBe("Carrier error 001");
    expect((await messageRow(silent.id))?.status).toBe("submitted");
  });
});

describe("the reconciler", () => {
  it("enqueues a queued message whose job never reached Redis, once it is overdue", async () => {
    const { id } = await queuedMessage();
    for (const job of await sendJobsFor(id)) await job.remove();
    expect((await reconcileAfter(0)).enqueued).toBe(0);
    expect((await reconcileAfter(31_000)).enqueued).toBeGreaterThanOrEqual(1);
    expect((await sendJobsFor(id)).map((job) => job.data)).toEqual([{ v: 2, messageIds: [id] }]);
  });

  it("adds an overdue message's job again once per grace period, and the message still goes out once", async () => {
    const { id } = await queuedMessage();
    expect((await reconcileAfter(31_000)).enqueued).toBeGreaterThanOrEqual(1);
    expect(await sendJobsFor(id)).toHaveLength(2);
    // Looked at again a second later: it was just added, so it waits another grace period.
    const start = Date.now();
    setClock(() => start + 32_000);
    expect((await reconcileSms()).enqueued).toBe(0);
    resetClock();
    const outcomes = [await sendQueuedMessage(simulator, id), await sendQueuedMessage(simulator, id)];
    expect(outcomes).toEqual([{ kind: "submitted" }, { kind: "skipped" }]);
  });

  it("counts a requeue once when two sweeps (on two workers) read the same overdue row", async () => {
    const { id } = await queuedMessage();
    const start = Date.now();
    setClock(() => start + 31_000);
    // The other worker's sweep read the row, then this one counted its requeue first.
    const seen = (await selectStaleOutboxRows(start + 31_000 - OUTBOX_GRACE_MS, 1_000)).find(
      (row) => row.messageId === id,
    )!;
    expect((await reconcileSms()).enqueued).toBeGreaterThanOrEqual(1);
    expect(
      await withTx(async () => await postponeOutboxRows([{ messageId: id, requeues: seen.requeues }], start + 31_000)),
    ).toEqual(new Set());
    expect((await getDb().select().from(smsOutbox).where(eq(smsOutbox.messageId, id)).get())?.requeues).toBe(1);
  });

  it("postpones a sweep's rows and drops those of messages that moved on in one transaction, not one each", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 40);
    const { messages } = await queueMessages(
      user.id,
      Array.from({ length: 30 }, (_, i) => ({ to: `+1202555${String(1000 + i)}`, body: "swept" })),
    );
    // Ten have moved on (claimed) with their outbox rows still there, as a crash can leave them.
    const moved = messages.slice(0, 10).map(({ id }) => id);
    for (const id of moved) {
      expect(await claimMessage(id)).toBe(true);
      await getDb().insert(smsOutbox).values({ messageId: id, dueAt: new Date() }).run();
    }
    const before = workCounters().commits;
    const report = await reconcileAfter(31_000);
    expect(workCounters().commits - before).toBeLessThan(5);
    expect(report.enqueued).toBeGreaterThanOrEqual(20);
    for (const { id } of messages) expect(await outboxHas(id)).toBe(!moved.includes(id));
    const requeues = await getDb().select().from(smsOutbox).where(eq(smsOutbox.messageId, messages[29].id)).get();
    expect(requeues?.requeues).toBe(1);
    expect((await sendJobsFor(messages[29].id)).length).toBeGreaterThanOrEqual(2);
  });

  it("drops the outbox row of a message that has moved on", async () => {
    const { id } = await queuedMessage();
    expect(await claimMessage(id)).toBe(true);
    await recordAccepted(id, [{ part: 1, providerId: "moved-1" }]);
    await getDb().insert(smsOutbox).values({ messageId: id, dueAt: new Date() }).run();
    await reconcileAfter(31_000);
    expect(await outboxHas(id)).toBe(false);
  });

  it("fails and refunds a message whose job keeps failing before it reaches the SMSC", async () => {
    const { user, id } = await queuedMessage();
    const start = Date.now();
    // No worker takes it: every grace period the reconciler adds its job again, until it gives up.
    for (let round = 1; round <= MAX_REQUEUES; round++) {
      setClock(() => start + round * (OUTBOX_GRACE_MS + 1_000));
      expect((await reconcileSms()).enqueued).toBeGreaterThanOrEqual(1);
    }
    setClock(() => start + (MAX_REQUEUES + 1) * (OUTBOX_GRACE_MS + 1_000));
    expect((await reconcileSms()).failed).toBeGreaterThanOrEqual(1);
    expect(await messageRow(id)).toMatchObject({
      status: "failed",
      error: "Could not be sent: its send job kept failing",
    });
    expect(await getBalance(user.id)).toBe(5);
  });

  it("settles a message stuck mid-submit from its provider ids, and never sends it again", async () => {
    const accepted = await queuedMessage("+12025550172", "r".repeat(200));
    expect(await claimMessage(accepted.id)).toBe(true);
    await requeueMessage(accepted.id, "lost", [
      { part: 1, providerId: "stuck-1" },
      { part: 2, providerId: "stuck-2" },
    ]);
    expect(await claimMessage(accepted.id)).toBe(true);

    const unanswered = await queuedMessage("+12025550173");
    expect(await claimMessage(unanswered.id)).toBe(true);

    expect((await reconcileAfter(60_000)).unknown).toBe(0);
    const report = await reconcileAfter(121_000);
    expect(report.submitted).toBeGreaterThanOrEqual(1);
    expect(report.unknown).toBeGreaterThanOrEqual(1);
    expect((await messageRow(accepted.id))?.status).toBe("submitted");
    expect(await messageRow(unanswered.id)).toMatchObject({ status: "unknown", error: INTERRUPTED_REASON });
    // Its credits stay debited: the carrier may have sent it.
    expect(await getBalance(unanswered.user.id)).toBe(4);
    expect(await sendQueuedMessage(simulator, unanswered.id)).toEqual({ kind: "skipped" });
    expect(await messageParts(unanswered.id)).toHaveLength(0);
  });

  it("forgets receipts that never found their message after an hour", async () => {
    await applyReceipts([{ providerId: "orphan-1", status: "delivered", error: null }]);
    expect((await reconcileAfter(3_600_001)).receiptsPurged).toBeGreaterThanOrEqual(1);
    expect((await getDb().select().from(smsPendingReceipts).all()).map((r) => r.providerId)).not.toContain("orphan-1");
  });
});
