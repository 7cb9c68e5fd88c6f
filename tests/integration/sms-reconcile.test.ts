// The worker's record keeping around the transport: claims, early receipts, the simulator and the
// reconciler that repairs what a crash leaves behind.
import { UnrecoverableError, Worker } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "../../app/db/client.server.ts";
import { smsOutbox, smsPendingReceipts } from "../../app/db/schema/sms.ts";
import { getBalance } from "../../app/modules/credits/ledger.server.ts";
import {
  applyReceipts,
  claimMessage,
  recordAccepted,
  requeueMessage,
  sendQueuedMessage,
} from "../../app/modules/sms/dispatch.server.ts";
import { INTERRUPTED_REASON, reconcileSms } from "../../app/modules/sms/reconcile.server.ts";
import { queueMessage, sendJobId } from "../../app/modules/sms/send.server.ts";
import { SIMULATOR_NUMBERS, SimulatorTransport } from "../../app/modules/sms/transports/simulator.server.ts";
import { getQueue, QUEUES, queueBaseOptions } from "../../app/queue/queues.server.ts";
import { createWorkerConnection } from "../../app/queue/redis.server.ts";
import { resetClock, setClock } from "../../app/utils/clock.server.ts";
import { createTestUser } from "../support/requests.ts";
import { grantCredits, ledgerKeys, messageParts, messageRow, outboxHas, waitForStatus } from "../support/sms.ts";
import { waitFor } from "../support/wait.ts";

const simulator = new SimulatorTransport({ dlrMs: 5, onReceipts: applyReceipts });
const queue = () => getQueue(QUEUES.smsSend);

afterEach(() => resetClock());

/** Runs the reconciler as if `ms` had passed. */
function reconcileAfter(ms: number) {
  const start = Date.now();
  setClock(() => start + ms);
  return reconcileSms();
}

async function queuedMessage(to = "+12025550170", body = "hello") {
  const user = await createTestUser();
  grantCredits(user.id, 5);
  const message = await queueMessage(user.id, { to, body });
  return { user, id: message.id };
}

describe("sending a queued message", () => {
  it("is claimed by one worker only: a second run of the same message sends nothing", async () => {
    const { id } = await queuedMessage();
    const outcomes = await Promise.all([sendQueuedMessage(simulator, id), sendQueuedMessage(simulator, id)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["skipped", "submitted"]);
    expect(messageParts(id)).toHaveLength(1);
    expect(outboxHas(id)).toBe(false);
    await waitForStatus(id, "delivered");
    expect(await sendQueuedMessage(simulator, id)).toEqual({ outcome: "skipped" });
  });

  it("keeps a receipt that arrives before the submit is recorded and applies it then", async () => {
    const { id } = await queuedMessage();
    applyReceipts([{ providerId: "early-1", status: "delivered", error: null }]);
    expect(db.select().from(smsPendingReceipts).all().map((r) => r.providerId)).toContain("early-1");
    expect(claimMessage(id)).toBe(true);
    recordAccepted(id, [{ part: 1, providerId: "early-1" }]);
    expect(messageRow(id)?.status).toBe("delivered");
    expect(db.select().from(smsPendingReceipts).all().map((r) => r.providerId)).not.toContain("early-1");
  });

  it("goes back to the queue after a temporary error, keeping the parts already accepted", async () => {
    const { id } = await queuedMessage("+12025550171", "p".repeat(300));
    expect(claimMessage(id)).toBe(true);
    requeueMessage(id, "SMSC busy", [{ part: 2, providerId: "kept-2" }]);
    expect(messageRow(id)).toMatchObject({ status: "queued", error: "Retrying: SMSC busy" });
    expect(outboxHas(id)).toBe(true);
    await sendQueuedMessage(simulator, id);
    // Only part 1 went again; part 2 kept its provider id.
    expect(messageParts(id).map((p) => [p.part, p.providerId.startsWith("sim-")])).toEqual([
      [1, true],
      [2, false],
    ]);
  });
});

describe("the simulator's numbers", () => {
  it("rejects, refunds, reports undelivered or stays silent as the README says", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 3);
    const rejected = await queueMessage(user.id, { to: SIMULATOR_NUMBERS.rejected, body: "a" });
    const undelivered = await queueMessage(user.id, { to: SIMULATOR_NUMBERS.undelivered, body: "b" });
    const silent = await queueMessage(user.id, { to: SIMULATOR_NUMBERS.noReceipt, body: "c" });
    for (const m of [rejected, undelivered, silent]) await sendQueuedMessage(simulator, m.id);
    expect(messageRow(rejected.id)).toMatchObject({ status: "failed", error: "Rejected by the carrier (simulated): invalid destination" });
    expect(ledgerKeys(user.id)).toContain(`msg:${rejected.id}:refund`);
    expect(getBalance(user.id)).toBe(1);
    await waitForStatus(undelivered.id, "undelivered");
    expect(messageRow(undelivered.id)?.error).toBe("Carrier error 001");
    expect(messageRow(silent.id)?.status).toBe("submitted");
  });
});

describe("the reconciler", () => {
  it("enqueues a queued message whose job never reached Redis, once it is overdue", async () => {
    const { id } = await queuedMessage();
    await queue().remove(sendJobId(id));
    expect((await reconcileAfter(0)).enqueued).toBe(0);
    expect((await reconcileAfter(31_000)).enqueued).toBeGreaterThanOrEqual(1);
    expect((await queue().getJob(sendJobId(id)))?.data).toEqual({ v: 1, messageId: id });
  });

  it("leaves a message whose job is still waiting alone", async () => {
    const { id } = await queuedMessage();
    const before = await queue().getJob(sendJobId(id));
    await reconcileAfter(31_000);
    expect((await queue().getJob(sendJobId(id)))?.timestamp).toBe(before?.timestamp);
    expect(messageRow(id)?.status).toBe("queued");
  });

  it("drops the outbox row of a message that has moved on", async () => {
    const { id } = await queuedMessage();
    expect(claimMessage(id)).toBe(true);
    recordAccepted(id, [{ part: 1, providerId: "moved-1" }]);
    db.insert(smsOutbox).values({ messageId: id, createdAt: new Date() }).run();
    await reconcileAfter(31_000);
    expect(outboxHas(id)).toBe(false);
  });

  it("fails and refunds a message whose job failed for good before reaching the SMSC", async () => {
    const { user, id } = await queuedMessage();
    const worker = new Worker(
      QUEUES.smsSend,
      async () => {
        throw new UnrecoverableError("payload from the future");
      },
      { ...queueBaseOptions(), connection: createWorkerConnection() },
    );
    try {
      await waitFor(async () => (await queue().getJob(sendJobId(id)))?.failedReason, { what: "the job to fail" });
    } finally {
      await worker.close();
    }
    const report = await reconcileAfter(31_000);
    expect(report.failed).toBeGreaterThanOrEqual(1);
    expect(messageRow(id)).toMatchObject({ status: "failed", error: "Could not be sent: payload from the future" });
    expect(getBalance(user.id)).toBe(5);
  });

  it("settles a message stuck mid-submit from its provider ids, and never sends it again", async () => {
    const accepted = await queuedMessage("+12025550172", "r".repeat(200));
    expect(claimMessage(accepted.id)).toBe(true);
    requeueMessage(accepted.id, "lost", [
      { part: 1, providerId: "stuck-1" },
      { part: 2, providerId: "stuck-2" },
    ]);
    expect(claimMessage(accepted.id)).toBe(true);

    const unanswered = await queuedMessage("+12025550173");
    expect(claimMessage(unanswered.id)).toBe(true);

    expect((await reconcileAfter(60_000)).unknown).toBe(0);
    const report = await reconcileAfter(121_000);
    expect(report.submitted).toBeGreaterThanOrEqual(1);
    expect(report.unknown).toBeGreaterThanOrEqual(1);
    expect(messageRow(accepted.id)?.status).toBe("submitted");
    expect(messageRow(unanswered.id)).toMatchObject({ status: "unknown", error: INTERRUPTED_REASON });
    // Its credits stay debited: the carrier may have sent it.
    expect(getBalance(unanswered.user.id)).toBe(4);
    expect(await sendQueuedMessage(simulator, unanswered.id)).toEqual({ outcome: "skipped" });
    expect(messageParts(unanswered.id)).toHaveLength(0);
  });

  it("forgets receipts that never found their message after an hour", async () => {
    applyReceipts([{ providerId: "orphan-1", status: "delivered", error: null }]);
    expect((await reconcileAfter(3_600_001)).receiptsPurged).toBeGreaterThanOrEqual(1);
    expect(db.select().from(smsPendingReceipts).all().map((r) => r.providerId)).not.toContain("orphan-1");
  });
});
