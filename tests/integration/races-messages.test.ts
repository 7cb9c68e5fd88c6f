// Issue 32, "What breaks today when writers overlap": the worker's message writes when transactions
// overlap (a receipt racing its answer, a group send's last messages, an endpoint deleted under a
// receipt, overlapping claims, concurrent reconcilers), driven through the domain functions. On
// PostgreSQL the worker's own calls take MESSAGE_STATE_TURN (decision 131), one at a time across the
// fleet; the held tests wrap each call in a SERIALIZABLE transaction of its own (inside which no turn is
// taken) and hold the racing ones open together at the racy point, so the domain's writes are shown
// right even when they do overlap (one of them runs again, decision 127). SQLite lets one writer in at
// a time, so there they run in turn.
import { and, eq, inArray } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb, MESSAGE_STATE_TURN, usesPostgres, withTx } from "#app/db/client.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { smsMessageParts, smsMessages, smsOutbox, smsPendingReceipts } from "#app/db/schema/sms.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "#app/db/schema/webhooks.ts";
import { ROLLUP_BUCKET_MS } from "#app/db/schema/insight.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import type { OutgoingSms, SmsTransport, SubmitOutcome } from "#app/modules/messaging/transport-types.ts";
import { applyReceipts, recordAccepted, sendQueuedMessages } from "#app/modules/sms/dispatch.server.ts";
import { INTERRUPTED_REASON, MAX_REQUEUES, reconcileSms } from "#app/modules/sms/reconcile.server.ts";
import { deleteEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import type { WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { forgetSubscriptions } from "#app/modules/webhooks/subscriptions.server.ts";
import { clock, resetClock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { sqlCount } from "#tests/support/database.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, sendJobsFor } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

// Enough connections for every transaction a test holds open at once.
process.env.DATABASE_POOL_SIZE = "30";

afterEach(() => resetClock());

/**
 * Lets `count` transactions through once all of them have reached it (then everyone, at once: a
 * transaction PostgreSQL runs again passes straight on). On SQLite a transaction holds the one
 * connection, so none waits there.
 */
function heldTogether(count: number): () => Promise<void> {
  if (!usesPostgres()) return async () => {};
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived >= count) open();
    await opened;
  };
}

/** Runs `work` in a transaction of its own that commits only once every transaction of `hold` has done its work. */
const heldUntilAll = (hold: () => Promise<void>, work: () => Promise<unknown>) =>
  withTx(async () => {
    await work();
    await hold();
  });

type StoredMessage = { status: MessageStatus; createdAt?: number; groupSendId?: number };

/** Messages stored as the send path leaves them (no outbox row unless asked), their ids. */
async function storeMessages(userId: number, messages: StoredMessage[]) {
  const now = clock.now();
  return (
    await getDb()
      .insert(smsMessages)
      .values(
        messages.map((message, i) => ({
          userId,
          toPhone: `+1202555${String(1000 + i).padStart(4, "0")}`,
          body: `Race ${i}`,
          encoding: "GSM-7" as const,
          segments: 1,
          credits: 1,
          status: message.status,
          groupSendId: message.groupSendId ?? null,
          createdAt: new Date(message.createdAt ?? now),
          updatedAt: new Date(message.createdAt ?? now),
        })),
      )
      .returning({ id: smsMessages.id })
      .all()
  ).map((row) => row.id);
}

/** Parts the SMSC accepted (status submitted), each under its provider id. */
async function storeParts(parts: { messageId: number; part: number; providerId: string }[]) {
  await getDb()
    .insert(smsMessageParts)
    .values(parts.map((part) => ({ ...part, updatedAt: clock.date() })))
    .run();
}

/**
 * The messages created in a rollup bucket each (15 minutes apart): their status moves then update no
 * rollup row in common, which held transactions would wait on (the account's hot rollup row is item 9).
 */
const inOwnBuckets = (messages: StoredMessage[]) =>
  messages.map((message, i) => ({ ...message, createdAt: clock.now() - i * ROLLUP_BUCKET_MS }));

const statusesOf = async (ids: number[]) =>
  (
    await getDb().select({ status: smsMessages.status }).from(smsMessages).where(inArray(smsMessages.id, ids)).all()
  ).map((row) => row.status);

/** An enabled endpoint of the account for `events`, seen by this process's subscriptions at once. */
async function endpointFor(userId: number, events: WebhookEventType[]) {
  const now = clock.date();
  const { id } = (await getDb()
    .insert(webhookEndpoints)
    .values({
      userId,
      url: "https://hooks.example.com/races",
      events: events.join(" "),
      secretCiphertext: "",
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: webhookEndpoints.id })
    .get())!;
  forgetSubscriptions();
  return id;
}

const eventsOf = async (userId: number, type: WebhookEventType) =>
  await getDb()
    .select({ payload: webhookEvents.payload })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.userId, userId), eq(webhookEvents.type, type)))
    .all();

describe("a delivery receipt racing its submit answer (item 1)", () => {
  const PAIRS_AT_ONCE = 5;
  // At READ COMMITTED (checked once by hand) every pair lost its receipt: the receipt's transaction
  // found no part and kept it as pending, the answer's found no pending receipt, and 20 of 20
  // messages stayed `submitted` with their receipt left in sms_pending_receipts.
  it("is applied when each finds the other's rows missing: every message ends delivered, no receipt left waiting", async () => {
    const user = await createTestUser();
    const pairs = 20;
    const ids = await storeMessages(
      user.id,
      inOwnBuckets(Array.from({ length: pairs }, () => ({ status: "submitting" as const }))),
    );
    const providerId = (id: number) => `race-receipt-${id}`;
    // Each pair's two transactions both read and write before either commits; five pairs at a time:
    // SSI's page and table predicate locks make unrelated pairs conflict too, and with twenty pairs at
    // once a transaction now and then failed all ten of withTx's tries (40001).
    for (let first = 0; first < pairs; first += PAIRS_AT_ONCE)
      await Promise.all(
        ids.slice(first, first + PAIRS_AT_ONCE).flatMap((id) => {
          const hold = heldTogether(2);
          return [
            heldUntilAll(hold, () => applyReceipts([{ providerId: providerId(id), status: "delivered", error: null }])),
            heldUntilAll(hold, () => recordAccepted(id, [{ part: 1, providerId: providerId(id) }])),
          ];
        }),
      );
    expect(await statusesOf(ids)).toEqual(ids.map(() => "delivered"));
    const waiting = await getDb()
      .select()
      .from(smsPendingReceipts)
      .where(
        inArray(
          smsPendingReceipts.providerId,
          ids.map((id) => providerId(id)),
        ),
      )
      .all();
    expect(waiting).toEqual([]);
    const parts = await getDb()
      .select({ status: smsMessageParts.status })
      .from(smsMessageParts)
      .where(inArray(smsMessageParts.messageId, ids))
      .all();
    expect(parts.map((part) => part.status)).toEqual(ids.map(() => "delivered"));
  });
  // Without the turn's lock (READ COMMITTED alone, checked once by hand) 40 of 40 stayed `submitted`.
  it("through the worker's own calls, all at once, each in its turn: every message ends delivered", async () => {
    const user = await createTestUser();
    const ids = await storeMessages(
      user.id,
      Array.from({ length: 40 }, () => ({ status: "submitting" as const })),
    );
    const providerId = (id: number) => `turn-receipt-${id}`;
    await Promise.all(
      ids.flatMap((id) => [
        applyReceipts([{ providerId: providerId(id), status: "delivered", error: null }]),
        recordAccepted(id, [{ part: 1, providerId: providerId(id) }]),
      ]),
    );
    expect(await statusesOf(ids)).toEqual(ids.map(() => "delivered"));
  });
});

/**
 * Five group sends of the user with an endpoint for group_send.completed, each with three messages
 * delivered and its last two submitted, waiting for their receipts (parts `race-group-<id>`).
 */
async function groupSendsWithLastTwoWaiting(userId: number) {
  await endpointFor(userId, ["group_send.completed", "message.delivered"]);
  const sends = 5;
  const now = clock.now();
  const groupSendIds = (
    await getDb()
      .insert(groupSends)
      .values(
        Array.from({ length: sends }, (_, i) => ({
          userId,
          groupName: `Race group ${i}`,
          body: "Hi",
          segments: 1,
          status: "done" as const,
          total: GROUP_SEND_SIZE,
          queued: GROUP_SEND_SIZE,
          updatedAt: new Date(now),
        })),
      )
      .returning({ id: groupSends.id })
      .all()
  ).map((row) => row.id);
  const statuses: MessageStatus[] = ["delivered", "delivered", "delivered", "submitted", "submitted"];
  const ids = await storeMessages(
    userId,
    inOwnBuckets(groupSendIds.flatMap((groupSendId) => statuses.map((status) => ({ status, groupSendId })))),
  );
  const lastTwo = ids.filter((_, i) => statuses[i % GROUP_SEND_SIZE] === "submitted");
  await storeParts(lastTwo.map((messageId) => ({ messageId, part: 1, providerId: `race-group-${messageId}` })));
  return { groupSendIds, ids, lastTwo };
}
const GROUP_SEND_SIZE = 5;

const groupReceipt = (id: number) => ({ providerId: `race-group-${id}`, status: "delivered" as const, error: null });

/** Every message delivered, every send completed once, with one group_send.completed event counting them all. */
async function expectCompletedOnce(userId: number, { groupSendIds, ids }: { groupSendIds: number[]; ids: number[] }) {
  expect(await statusesOf(ids)).toEqual(ids.map(() => "delivered"));
  const completed = await getDb()
    .select({ id: groupSends.id, completedAt: groupSends.completedAt })
    .from(groupSends)
    .where(inArray(groupSends.id, groupSendIds))
    .all();
  expect(completed.filter((send) => send.completedAt !== null)).toHaveLength(groupSendIds.length);
  const events = (await eventsOf(userId, "group_send.completed")).map(
    (event) => (JSON.parse(event.payload) as { data: { id: number; delivered: number } }).data,
  );
  expect(events.map((event) => event.id).sort((a, b) => a - b)).toEqual(groupSendIds);
  expect(events.every((event) => event.delivered === GROUP_SEND_SIZE)).toBe(true);
}

describe("a group send's last messages finishing at once (item 2)", () => {
  // At READ COMMITTED (checked once by hand) none of the 5 sends completed: each receipt's transaction saw the
  // other messages still `submitted`, so completed_at stayed null and no group_send.completed was recorded.
  it("completes the send once, with one group_send.completed event", async () => {
    const user = await createTestUser();
    const sends = await groupSendsWithLastTwoWaiting(user.id);
    // A send's last two receipts each in a transaction of its own, both written before either commits;
    // one send after another: every receipt's completion check reads the index entries the others'
    // moves write, so ten at once took 3.7 tries each on average, too close to withTx's ten.
    for (let first = 0; first < sends.lastTwo.length; first += 2) {
      const hold = heldTogether(2);
      await Promise.all(
        sends.lastTwo.slice(first, first + 2).map((id) => heldUntilAll(hold, () => applyReceipts([groupReceipt(id)]))),
      );
    }
    await expectCompletedOnce(user.id, sends);
  });
});

describe("an endpoint deleted while a receipt's transaction runs (item 10)", () => {
  // At READ COMMITTED (checked once by hand) the receipt's transaction failed for good: its delivery
  // row's foreign key check waited for the deletion, then found the endpoint gone (23503).
  it("runs the receipt's transaction again without the endpoint: the message delivered, no delivery for the deleted endpoint", async () => {
    const user = await createTestUser();
    const endpointId = await endpointFor(user.id, ["message.delivered"]);
    const [id] = await storeMessages(user.id, [{ status: "submitted" }]);
    await storeParts([{ messageId: id, part: 1, providerId: `race-endpoint-${id}` }]);
    let deleted!: () => void;
    const deletedYet = new Promise<void>((resolve) => (deleted = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    // The deletion holds its row lock, uncommitted, while the receipt's transaction reads the endpoint
    // (its snapshot still has it) and writes a delivery for it.
    const deletion = withTx(async () => {
      await deleteEndpoint(user.id, endpointId);
      deleted();
      await committing;
    });
    await deletedYet;
    const receipt = applyReceipts([{ providerId: `race-endpoint-${id}`, status: "delivered", error: null }]);
    if (usesPostgres())
      await waitFor(
        async () =>
          (await sqlCount(
            "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          )) > 0,
        { what: "the receipt's transaction to wait for the deletion's row lock" },
      );
    commit();
    await Promise.all([deletion, receipt]);
    expect(await statusesOf([id])).toEqual(["delivered"]);
    expect(
      await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).all(),
    ).toEqual([]);
  });
});

/** A transport that hands every message it claims to the "SMSC" (a list), accepted. */
class RecordingTransport implements SmsTransport {
  readonly name = "recording";
  readonly handed: number[] = [];

  async submitMany(messages: OutgoingSms[], claim: (ids: number[]) => Promise<Set<number>>) {
    const claimed = await claim(messages.map((sms) => sms.id));
    const outcomes = new Map<number, SubmitOutcome>();
    for (const sms of messages) {
      if (!claimed.has(sms.id)) {
        outcomes.set(sms.id, { kind: "not-claimed" });
        continue;
      }
      this.handed.push(sms.id);
      outcomes.set(sms.id, {
        kind: "accepted",
        acks: sms.parts.map((part) => ({ part, providerId: `race-claim-${sms.id}-${part}` })),
      });
    }
    return outcomes;
  }

  async close() {}
}

describe("overlapping claims", () => {
  // Passes at READ COMMITTED too (checked once by hand), and must: the claim is one UPDATE ... WHERE
  // status = 'queued', which waits for the other claim's row lock and then checks its WHERE again on
  // the row as committed, so a message already claimed is left out at any isolation level.
  it("send each message once when several workers claim the same messages at once", async () => {
    const user = await createTestUser();
    const ids = await storeMessages(
      user.id,
      Array.from({ length: 40 }, () => ({ status: "queued" as const })),
    );
    await getDb()
      .insert(smsOutbox)
      .values(ids.map((messageId) => ({ messageId, dueAt: clock.date() })))
      .run();
    const transport = new RecordingTransport();
    const workers = 8;
    const results = await Promise.all(Array.from({ length: workers }, () => sendQueuedMessages(transport, ids)));
    expect([...transport.handed].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids)
      expect(results.map((result) => result.get(id)!.kind).filter((kind) => kind === "submitted")).toHaveLength(1);
    expect(await statusesOf(ids)).toEqual(ids.map(() => "submitted"));
    expect(await getDb().select().from(smsOutbox).where(inArray(smsOutbox.messageId, ids)).all()).toEqual([]);
  });
});

describe("concurrent reconcilers", () => {
  // Passes at READ COMMITTED too (checked once by hand), and must: each of the reconciler's writes is
  // conditional on what it read (the outbox row's requeue count, the message's status), and an UPDATE
  // checks its WHERE again on the committed row after waiting for another's row lock, so only one
  // reconciler's write changes a row at any isolation level.
  it("add at most one retry per overdue message, fail and refund a given-up one once, mark a stuck one once", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const now = clock.now();
    const overdue = await storeMessages(
      user.id,
      Array.from({ length: 10 }, () => ({ status: "queued" as const })),
    );
    const givenUp = await storeMessages(
      user.id,
      Array.from({ length: 5 }, () => ({ status: "queued" as const })),
    );
    await getDb()
      .insert(smsOutbox)
      .values([
        ...overdue.map((messageId) => ({ messageId, dueAt: new Date(now - 60_000) })),
        ...givenUp.map((messageId) => ({ messageId, dueAt: new Date(now - 60_000), requeues: MAX_REQUEUES })),
      ])
      .run();
    const stuck = await storeMessages(
      user.id,
      Array.from({ length: 5 }, () => ({ status: "submitting" as const, createdAt: now - 86_400_000 })),
    );
    const accepted = await storeMessages(
      user.id,
      Array.from({ length: 5 }, () => ({ status: "submitting" as const, createdAt: now - 86_400_000 })),
    );
    await storeParts(accepted.map((messageId) => ({ messageId, part: 1, providerId: `race-reconcile-${messageId}` })));

    const reports = await Promise.all(Array.from({ length: 10 }, () => reconcileSms()));

    const total = (key: "enqueued" | "failed" | "submitted" | "unknown") =>
      reports.reduce((sum, report) => sum + report[key], 0);
    expect(total("enqueued")).toBe(overdue.length);
    for (const id of overdue) expect(await sendJobsFor(id)).toHaveLength(1);
    const outbox = await getDb()
      .select({ requeues: smsOutbox.requeues })
      .from(smsOutbox)
      .where(inArray(smsOutbox.messageId, overdue))
      .all();
    expect(outbox.map((row) => row.requeues)).toEqual(overdue.map(() => 1));

    expect(total("failed")).toBe(givenUp.length);
    expect(await statusesOf(givenUp)).toEqual(givenUp.map(() => "failed"));
    const refunds = await getDb()
      .select({ key: creditLedger.key })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.id), eq(creditLedger.kind, "refund")))
      .all();
    expect(refunds.map((row) => row.key).sort()).toEqual(givenUp.map((id) => `msg:${id}:refund`).sort());

    expect(total("unknown")).toBe(stuck.length);
    const interrupted = await getDb()
      .select({ status: smsMessages.status, error: smsMessages.error })
      .from(smsMessages)
      .where(inArray(smsMessages.id, stuck))
      .all();
    expect(interrupted).toEqual(stuck.map(() => ({ status: "unknown", error: INTERRUPTED_REASON })));
    // recordAccepted moves a message once; a reconciler that came second finds it submitted and counts it too.
    expect(total("submitted")).toBeGreaterThanOrEqual(accepted.length);
    expect(await statusesOf(accepted)).toEqual(accepted.map(() => "submitted"));
  });
});

describe("two workers writing message states at once (decision 143)", () => {
  // Each worker process writes its state changes one transaction at a time, taking the message-state
  // turn shared: two workers' transactions run side by side, and only the locks of the messages and
  // provider ids they touch make them wait for each other. A second module graph is the second worker
  // (its own queue and connections). The test holds the turn exclusively while both workers' transactions
  // queue for it, then lets both go at once, so they overlap.
  /** Runs `test` with a second worker's dispatch module, whose connections it then closes. */
  async function withSecondWorker(
    test: (other: typeof import("#app/modules/sms/dispatch.server.ts")) => Promise<void>,
  ) {
    vi.resetModules();
    const other = await import("#app/modules/sms/dispatch.server.ts");
    const { closeDb } = await import("#app/db/client.server.ts");
    try {
      await test(other);
    } finally {
      await closeDb();
    }
  }

  /**
   * Runs `both` while a connection of the test holds a lock (`take`), and lets it go (`release`) once
   * two transactions wait for a lock: both then go on at once.
   */
  async function releasedTogether<T>(
    both: () => Promise<T>,
    [take, release]: [string, string] = [
      `select pg_advisory_lock(${MESSAGE_STATE_TURN})`,
      "select pg_advisory_unlock_all()",
    ],
  ): Promise<T> {
    if (!usesPostgres()) return await both();
    const holder = new pg.Client({ connectionString: getEnv().DATABASE_URL });
    await holder.connect();
    try {
      await holder.query(take);
      const running = both();
      await waitFor(
        async () =>
          (await sqlCount(
            "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          )) >= 2,
        { what: "both workers' transactions to wait for the test's lock" },
      );
      await holder.query(release);
      return await running;
    } finally {
      await holder.end();
    }
  }

  // Without the message locks (the turn shared alone, checked once by hand) every message stayed
  // `submitted`: each worker read the other part as submitted before the other committed.
  it("apply the receipts of one message's two parts, one on each worker: every message delivered", async () => {
    await withSecondWorker(async (other) => {
      const user = await createTestUser();
      const ids = await storeMessages(
        user.id,
        Array.from({ length: 20 }, () => ({ status: "submitted" as const })),
      );
      await getDb().update(smsMessages).set({ segments: 2 }).where(inArray(smsMessages.id, ids)).run();
      const providerId = (id: number, part: number) => `two-workers-${id}-${part}`;
      await storeParts(
        ids.flatMap((messageId) =>
          [1, 2].map((part) => ({ messageId, part, providerId: providerId(messageId, part) })),
        ),
      );
      const receiptsOf = (part: number) =>
        ids.map((id) => ({ providerId: providerId(id, part), status: "delivered" as const, error: null }));
      // Held where each has read the message's parts and writes its own (the parts' rows).
      await releasedTogether(
        () => Promise.all([applyReceipts(receiptsOf(1)), other.applyReceipts(receiptsOf(2))]),
        [`begin; select 1 from sms_message_parts where message_id in (${ids.join(", ")}) for update`, "commit"],
      );
      expect(await statusesOf(ids)).toEqual(ids.map(() => "delivered"));
    });
  });

  // Without the sends' completion locks (checked once by hand) no send completed: each worker saw the
  // other's last message still submitted.
  it("finish a group send's last two messages, one on each worker: the send completes once, with one event", async () => {
    await withSecondWorker(async (other) => {
      const user = await createTestUser();
      const sends = await groupSendsWithLastTwoWaiting(user.id);
      const [first, second] = [0, 1].map((n) => sends.lastTwo.filter((_, i) => i % 2 === n).map(groupReceipt));
      // Held where both have moved their messages and record their events (the endpoint's row, which
      // their deliveries reference), so both then check their sends at once.
      await releasedTogether(
        () => Promise.all([applyReceipts(first), other.applyReceipts(second)]),
        [`begin; select id from webhook_endpoints where user_id = ${user.id} for update`, "commit"],
      );
      await expectCompletedOnce(user.id, sends);
    });
  });

  // Without the provider ids' locks (checked once by hand) every receipt was kept waiting and every
  // message stayed `submitted`: the receipt found no part, the answer no waiting receipt.
  it("apply a receipt on one worker while the other records its part's answer: every message delivered, none waiting", async () => {
    await withSecondWorker(async (other) => {
      const user = await createTestUser();
      const ids = await storeMessages(
        user.id,
        Array.from({ length: 20 }, () => ({ status: "queued" as const })),
      );
      const transport = new RecordingTransport();
      const receipts = ids.map((id) => ({
        providerId: `race-claim-${id}-1`,
        status: "delivered" as const,
        error: null,
      }));
      await releasedTogether(() => Promise.all([other.sendQueuedMessages(transport, ids), applyReceipts(receipts)]));
      expect(transport.handed.sort((a, b) => a - b)).toEqual(ids);
      expect(await statusesOf(ids)).toEqual(ids.map(() => "delivered"));
      expect(
        await sqlCount("select count(*) as n from sms_pending_receipts where provider_id like 'race-claim-%'"),
      ).toBe(0);
    });
  });
});
