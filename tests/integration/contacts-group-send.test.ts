import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contacts, groupSends } from "#app/db/schema/contacts.ts";
import { book, getBalance, getLedgerSum, InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { EmptyGroupError, InactiveContactError, NotFoundError } from "#app/modules/contacts/errors.ts";
import { describeGroupSend } from "#app/modules/group-sends/group-send.ts";
import {
  GROUP_SEND_STALE_MS,
  getGroupSendReport,
  reconcileGroupSends,
  runGroupSend,
  startGroupSend,
} from "#app/modules/group-sends/group-send.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { deleteGroup } from "#app/modules/scheduling/cancel.server.ts";
import { findGroupSendJob } from "#app/queue/jobs/group-send.server.ts";
import { messageIdsOf, SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { workCounts } from "#app/utils/work-counts.server.ts";
import { addOptOuts } from "#app/modules/opt-outs/opt-outs.server.ts";
import { groupSend } from "#worker/jobs/group-send.ts";
import { startWorkers } from "#worker/workers.ts";
import { messagesOfGroupSend, seedGroup } from "#tests/support/contacts.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, ledgerKeys } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const TWO_SEGMENTS = "x".repeat(200);

async function groupSendRows(userId: number) {
  return await getDb().select().from(groupSends).where(eq(groupSends.userId, userId)).all();
}

describe("group send to 1,000 members", () => {
  it("creates exactly 1,000 messages and debits each once, however often the fan-out runs", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 2_500);
    const { groupId, contactIds } = await seedGroup(user.id, 1_000);

    const started = await startGroupSend(user.id, groupId, TWO_SEGMENTS);
    expect(started).toMatchObject({ status: "queued", total: 1_000, queued: 0, finished: false });
    // One fan-out job, waiting in Redis; nothing is sent or debited yet.
    const job = await findGroupSendJob(started.id);
    expect(job?.data).toEqual({ v: 1, groupSendId: started.id });
    expect(await getBalance(user.id)).toBe(2_500);

    // The job runs twice at once (a stalled job picked up again while the first still runs)...
    const [first, second] = await Promise.all([runGroupSend(started.id), runGroupSend(started.id)]);
    expect(first?.finished).toBe(true);
    expect(second?.finished).toBe(true);
    // ...then again after a crash that lost its progress (as if it died before saving its cursor).
    await getDb().update(groupSends).set({ status: "running", cursor: 0 }).where(eq(groupSends.id, started.id)).run();
    const retried = await runGroupSend(started.id);

    const messages = await messagesOfGroupSend(started.id);
    expect(messages).toHaveLength(1_000);
    expect(new Set(messages.map((m) => m.contactId))).toEqual(new Set(contactIds));
    expect(messages.every((m) => m.source === "group" && m.segments === 2 && m.body === TWO_SEGMENTS)).toBe(true);
    const debits = (await ledgerKeys(user.id)).filter((key) => key.endsWith(":debit"));
    expect(debits).toHaveLength(1_000);
    expect(new Set(debits)).toEqual(new Set(messages.map((m) => `msg:${m.id}:debit`)));
    expect(await getBalance(user.id)).toBe(500);
    expect(await getLedgerSum(user.id)).toBe(500);
    expect(retried).toMatchObject({ status: "done", queued: 1_000, credits: 2_000, skipped: 0, stopReason: null });
    expect(describeGroupSend(retried!)).toBe("Queued 1,000 messages (2,000 credits).");
    // Every message is in exactly one send job (a job carries a batch).
    const jobs = await getQueue(SMS_SEND_QUEUE).getJobs(["waiting", "delayed", "active"]);
    const carried = jobs.flatMap((job) => messageIdsOf(job.data));
    expect(carried.sort((a, b) => a - b)).toEqual(messages.map((m) => m.id).sort((a, b) => a - b));
  });
});

describe("startGroupSend", () => {
  it("refuses an empty group, a group of inactive contacts, and another user's group", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const empty = await createGroup(user.id, { name: "Empty", description: "No one" });
    await expect(startGroupSend(user.id, empty.id, "hi")).rejects.toBeInstanceOf(EmptyGroupError);

    const { groupId, contactIds } = await seedGroup(user.id, 2);
    await getDb().update(contacts).set({ status: false }).where(eq(contacts.userId, user.id)).run();
    const error = await startGroupSend(user.id, groupId, "hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InactiveContactError);
    expect((error as Error).message).toBe("All 2 contacts of this group are inactive (opted out): nothing to send");
    expect(contactIds).toHaveLength(2);

    const other = await createTestUser();
    await grantCredits(other.id, 10);
    await expect(startGroupSend(other.id, groupId, "hi")).rejects.toBeInstanceOf(NotFoundError);
    expect(await groupSendRows(user.id)).toEqual([]);
    expect(await groupSendRows(other.id)).toEqual([]);
  });

  it("checks the whole cost up front: short of it, nothing is recorded, sent or debited", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const { groupId } = await seedGroup(user.id, 3, 2000);
    const error = await startGroupSend(user.id, groupId, TWO_SEGMENTS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ needed: 6, balance: 5 });
    expect(await groupSendRows(user.id)).toEqual([]);
    expect(await getBalance(user.id)).toBe(5);
  });

  it("starts one send for a form posted twice (the same request key)", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const { groupId } = await seedGroup(user.id, 2, 3000);
    const first = await startGroupSend(user.id, groupId, "hello", { requestKey: "k-1" });
    const again = await startGroupSend(user.id, groupId, "hello", { requestKey: "k-1" });
    expect(again.id).toBe(first.id);
    expect(await groupSendRows(user.id)).toHaveLength(1);
  });
});

describe("runGroupSend", () => {
  it("skips inactive contacts and numbers that no longer validate, and says so", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const { groupId, contactIds } = await seedGroup(user.id, 4, 4000);
    await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, contactIds[1])).run();
    await getDb().update(contacts).set({ phone: "+1555" }).where(eq(contacts.id, contactIds[3])).run();

    const started = await startGroupSend(user.id, groupId, "Sale today");
    // Three were active when it started: 3 credits needed.
    expect(started.total).toBe(4);
    const report = await runGroupSend(started.id);
    expect(report).toMatchObject({ status: "done", queued: 2, credits: 2, skipped: 2 });
    expect(describeGroupSend(report!)).toBe(
      "Queued 2 messages (2 credits); skipped 2: +12025554001 opted out, +1555 invalid phone number.",
    );
    expect((await messagesOfGroupSend(started.id)).map((m) => m.toPhone)).toEqual(["+12025554000", "+12025554002"]);
    expect(await getBalance(user.id)).toBe(8);
  });

  it("fans out 300 members with as many statements as 3, and skips 20 opted-out members with as many as one", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 303);
    const fanOut = async (members: number, firstNumber: number, optedOut: number) => {
      const { groupId } = await seedGroup(user.id, members, firstNumber);
      const phones = Array.from({ length: optedOut }, (_, i) => `+1202555${firstNumber + 1 + i}`);
      await addOptOuts(user.id, phones, "manual");
      const started = await startGroupSend(user.id, groupId, "hello");
      const before = workCounts().statements;
      const report = await runGroupSend(started.id);
      return { statements: workCounts().statements - before, report };
    };
    // Time held still: the price list's version is read once before, never during (decision 134).
    const now = Date.now();
    setClock(() => now);
    const [few, many] = await (async () => {
      await currentPriceList();
      return [await fanOut(3, 9000, 1), await fanOut(300, 9100, 20)];
    })().finally(resetClock);
    expect(many.statements).toBe(few.statements);
    expect(many.report).toMatchObject({ status: "done", queued: 280, skipped: 20 });
    expect(many.report?.skips[0]).toEqual({
      name: "Member 9101",
      phone: "+12025559101",
      reason: "opted out (replied STOP or on your opt-out list)",
    });
    expect(await getBalance(user.id)).toBe(303 - 2 - 280);
  });

  it("stops, and says why, when the balance runs out on the way", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 1_500);
    const { groupId } = await seedGroup(user.id, 1_500, 5000);
    const started = await startGroupSend(user.id, groupId, "hello");
    // Spent elsewhere between the check and the fan-out.
    await book({ userId: user.id, kind: "debit", amount: -1_000, key: `elsewhere:${user.id}` });
    const report = await runGroupSend(started.id);
    expect(report).toMatchObject({ status: "done", queued: 0, credits: 0 });
    expect(report?.stopReason).toBe(
      "Stopped early: not enough credits for the next 1,000 messages (1,000 credits needed, balance 500 credits).",
    );
    expect(await getBalance(user.id)).toBe(500);
  });

  it("finishes what it can after the group is deleted, keeping the report", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const { groupId } = await seedGroup(user.id, 2, 6000);
    const started = await startGroupSend(user.id, groupId, "hello");
    await deleteGroup(user.id, groupId);
    const report = await runGroupSend(started.id);
    expect(report).toMatchObject({
      status: "done",
      groupId: null,
      queued: 0,
      stopReason: "Stopped early: the group was deleted.",
    });
  });

  it("reports only to its owner", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const { groupId } = await seedGroup(user.id, 1, 7000);
    const started = await startGroupSend(user.id, groupId, "hello");
    const other = await createTestUser();
    expect(await getGroupSendReport(other.id, started.id)).toBeNull();
    expect((await getGroupSendReport(user.id, started.id))?.id).toBe(started.id);
  });
});

describe("the group-send worker", () => {
  it("fans out the job the form post enqueued, and the reconciler re-adds a lost one", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 20);
    const { groupId } = await seedGroup(user.id, 5, 8000);
    const started = await startGroupSend(user.id, groupId, "hello");
    // Lost from Redis (e.g. Redis was down when the form was posted).
    await (await findGroupSendJob(started.id))?.remove();
    setClock(() => Date.now() + GROUP_SEND_STALE_MS + 1_000);
    try {
      expect(await reconcileGroupSends()).toEqual({ enqueued: 1, failed: 0 });
    } finally {
      resetClock();
    }
    const workers = await startWorkers([groupSend]);
    try {
      const done = await waitFor(async () => {
        const report = await getGroupSendReport(user.id, started.id);
        return report?.finished ? report : undefined;
      });
      expect(done).toMatchObject({ status: "done", queued: 5, credits: 5 });
    } finally {
      await workers.close();
    }
  });
});
