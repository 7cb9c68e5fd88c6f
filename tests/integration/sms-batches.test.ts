// The worker records a slice's SMSC answers and a batch of receipts a statement per step, not per
// message: what a batch does must be what its items would do one by one, in order.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { databaseFile, getDb, getSqlite } from "#app/db/client.server.ts";
import { smsPendingReceipts } from "#app/db/schema/sms.ts";
import { webhookEvents } from "#app/db/schema/webhooks.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import {
  applyReceipts,
  claimMessage,
  RECORD_SLICE,
  recordAccepted,
  sendQueuedMessages,
  unrecordedLimit,
  unrecordedMessages,
} from "#app/modules/sms/dispatch.server.ts";
import { queueMessage, queueMessages } from "#app/modules/sms/send.server.ts";
import { smsCounters } from "#app/modules/health/sms-counters.server.ts";
import type { PartAck, Receipt, SmsTransport, SubmitOutcome } from "#app/modules/messaging/transport-types.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { itOnSqlite } from "#tests/support/engines.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, messageParts, messageRow, outboxHas } from "#tests/support/sms.ts";

// Read at the first getEnv(): the endpoints below are on loopback (nothing is delivered to them here).
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

const TWO_PARTS = "p".repeat(200);

/** A customer whose endpoint wants every message.* event (recorded in webhook_events, not delivered here). */
async function customer() {
  const user = await createTestUser();
  await grantCredits(user.id, 50);
  await createEndpoint(user.id, {
    url: "http://127.0.0.1:9/events",
    events: ["message.sent", "message.delivered", "message.failed"],
    enabled: true,
  });
  return user;
}

/** A queued message, claimed and accepted by the SMSC with provider ids `<prefix>-<part>`. */
async function accepted(userId: number, prefix: string, body = "hello") {
  const { id, segments } = await queueMessage(userId, { to: "+12025550190", body });
  expect(await claimMessage(id)).toBe(true);
  await recordAccepted(
    id,
    Array.from({ length: segments }, (_, i) => ({ part: i + 1, providerId: `${prefix}-${i + 1}` })),
  );
  return id;
}

const receipt = (providerId: string, status: Receipt["status"], error: string | null = null): Receipt => ({
  providerId,
  status,
  error,
});

/** The message.* events recorded for the user's message, in order: type and the status the payload shows. */
async function eventsOf(userId: number, messageId: number) {
  return (
    (
      await getDb()
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.userId, userId))
        // Event ids are monotonic ULIDs: their order is the order they were recorded in.
        .orderBy(webhookEvents.id)
        .all()
    )
      .map((event) => ({ type: event.type, data: JSON.parse(event.payload).data }))
      .filter((event) => event.data.id === messageId)
      .map((event) => `${event.type}:${event.data.status}`)
  );
}

const pendingFor = async (providerId: string) =>
  (
    await getDb()
      .select()
      .from(smsPendingReceipts)
      .where(eq(smsPendingReceipts.providerId, providerId))
      .orderBy(smsPendingReceipts.id)
      .all()
  ).map((row) => row.status);

describe("a batch of receipts", () => {
  it("moves each message to its own receipt when delivered and failed ones come together", async () => {
    const user = await customer();
    const delivered = await accepted(user.id, "mix-a");
    const undelivered = await accepted(user.id, "mix-b");
    const expired = await accepted(user.id, "mix-c");
    await applyReceipts([
      receipt("mix-a-1", "delivered"),
      receipt("mix-b-1", "undelivered", "001"),
      receipt("mix-c-1", "expired"),
    ]);
    expect(await messageRow(delivered)).toMatchObject({ status: "delivered", error: null, doneAt: expect.any(Date) });
    expect(await messageRow(undelivered)).toMatchObject({ status: "undelivered", error: "Carrier error 001" });
    expect(await messageRow(expired)).toMatchObject({ status: "expired", error: null, doneAt: expect.any(Date) });
    expect(await messageParts(undelivered)).toMatchObject([{ status: "undelivered", error: "001" }]);
    expect(await eventsOf(user.id, delivered)).toEqual(["message.sent:submitted", "message.delivered:delivered"]);
    expect(await eventsOf(user.id, undelivered)).toEqual(["message.sent:submitted", "message.failed:undelivered"]);
    expect(await eventsOf(user.id, expired)).toEqual(["message.sent:submitted", "message.failed:expired"]);
  });

  it("settles a multi-part message from its parts' receipts in the order they came", async () => {
    const user = await customer();
    const both = await accepted(user.id, "multi-a", TWO_PARTS);
    const half = await accepted(user.id, "multi-b", TWO_PARTS);
    const failedTwice = await accepted(user.id, "multi-c", TWO_PARTS);
    const unsure = await accepted(user.id, "multi-d", TWO_PARTS);
    await applyReceipts([
      receipt("multi-a-1", "delivered"),
      receipt("multi-b-1", "delivered"),
      // The first failure to come decides, as it would alone; the second part's failure is kept on the part.
      receipt("multi-c-2", "rejected", "0A"),
      receipt("multi-d-1", "unknown"),
      receipt("multi-a-2", "delivered"),
      receipt("multi-c-1", "undelivered", "001"),
      receipt("multi-d-2", "delivered"),
    ]);
    expect((await messageRow(both))?.status).toBe("delivered");
    expect((await messageRow(half))?.status).toBe("submitted");
    expect((await messageParts(half)).map((part) => part.status)).toEqual(["delivered", "submitted"]);
    expect(await messageRow(failedTwice)).toMatchObject({ status: "rejected", error: "Carrier error 0A" });
    expect((await messageParts(failedTwice)).map((part) => part.status)).toEqual(["undelivered", "rejected"]);
    expect((await messageRow(unsure))?.status).toBe("unknown");
    expect(await eventsOf(user.id, both)).toEqual(["message.sent:submitted", "message.delivered:delivered"]);
    expect(await eventsOf(user.id, failedTwice)).toEqual(["message.sent:submitted", "message.failed:rejected"]);

    // The rest come in a later batch: the unknown one moves on, the half one completes.
    await applyReceipts([receipt("multi-d-1", "delivered"), receipt("multi-b-2", "delivered")]);
    expect((await messageRow(unsure))?.status).toBe("delivered");
    expect((await messageRow(half))?.status).toBe("delivered");
  });

  it("keeps a receipt whose part is not recorded yet, in order, and applies it with its ack", async () => {
    const user = await customer();
    const known = await accepted(user.id, "early-known");
    const { id: early } = await queueMessage(user.id, { to: "+12025550191", body: "early" });
    await applyReceipts([
      receipt("early-later-1", "unknown"),
      receipt("early-known-1", "delivered"),
      receipt("early-later-1", "delivered"),
    ]);
    expect((await messageRow(known))?.status).toBe("delivered");
    expect(await pendingFor("early-later-1")).toEqual(["unknown", "delivered"]);

    expect(await claimMessage(early)).toBe(true);
    await recordAccepted(early, [{ part: 1, providerId: "early-later-1" }]);
    expect((await messageRow(early))?.status).toBe("delivered");
    expect(await messageParts(early)).toMatchObject([{ status: "delivered" }]);
    expect(await pendingFor("early-later-1")).toEqual([]);
    // Its message.sent shows it as it was sent, before the kept receipt moved it on.
    expect(await eventsOf(user.id, early)).toEqual(["message.sent:submitted", "message.delivered:delivered"]);
  });

  it("applies two receipts for one part as one by one: the first final one wins, counted once", async () => {
    const user = await customer();
    const twice = await accepted(user.id, "dup-a");
    const contradicted = await accepted(user.id, "dup-b");
    const enRoute = await accepted(user.id, "dup-c");
    const countedBefore = smsCounters().receipts;
    await applyReceipts([
      receipt("dup-a-1", "delivered"),
      receipt("dup-b-1", "delivered"),
      receipt("dup-c-1", "unknown"),
      receipt("dup-a-1", "delivered"),
      receipt("dup-b-1", "undelivered", "001"),
      receipt("dup-c-1", "delivered"),
    ]);
    expect((await messageRow(twice))?.status).toBe("delivered");
    expect(await messageRow(contradicted)).toMatchObject({ status: "delivered", error: null });
    expect(await messageParts(contradicted)).toMatchObject([{ status: "delivered", error: null }]);
    expect((await messageRow(enRoute))?.status).toBe("delivered");
    expect(await eventsOf(user.id, twice)).toEqual(["message.sent:submitted", "message.delivered:delivered"]);
    expect(await eventsOf(user.id, contradicted)).toEqual(["message.sent:submitted", "message.delivered:delivered"]);
    // The receipt delay metric counts a part's first receipt only.
    expect(smsCounters().receipts - countedBefore).toBe(3);
  });
});

/** A transport that gives each message the answer scripted for it, claiming all but the not-claimed. */
function scripted(answers: Map<number, SubmitOutcome>): SmsTransport {
  return {
    name: "scripted",
    async submitMany(messages, claim) {
      await claim(messages.filter((sms) => answers.get(sms.id)?.kind !== "not-claimed").map((sms) => sms.id));
      return new Map(messages.map((sms) => [sms.id, answers.get(sms.id)!]));
    },
    async close() {},
  };
}

describe("a slice of SMSC answers", () => {
  it("records answers of every kind together as it would one by one", async () => {
    const user = await customer();
    const queue = async (body = "slice") => (await queueMessage(user.id, { to: "+12025550192", body })).id;
    const [plain, long, refused, busy, taken, early] = [
      await queue(),
      await queue(TWO_PARTS),
      await queue(TWO_PARTS),
      await queue(),
      await queue(),
      await queue(),
    ];
    const balance = await getBalance(user.id);
    await applyReceipts([receipt("slice-early-1", "undelivered", "001")]);
    const acks = (prefix: string, ...parts: number[]): PartAck[] =>
      parts.map((part) => ({ part, providerId: `${prefix}-${part}` }));
    const answers = new Map<number, SubmitOutcome>([
      [plain, { kind: "accepted", acks: acks("slice-plain", 1) }],
      [long, { kind: "accepted", acks: acks("slice-long", 1, 2) }],
      [refused, { kind: "permanent", reason: "Invalid destination", acks: acks("slice-refused", 1) }],
      [busy, { kind: "temporary", reason: "SMSC busy", acks: [] }],
      [taken, { kind: "not-claimed" }],
      [early, { kind: "accepted", acks: acks("slice-early", 1) }],
    ]);
    const results = await sendQueuedMessages(scripted(answers), [plain, long, refused, busy, taken, early]);

    expect(Object.fromEntries([...results].map(([id, result]) => [id, result.kind]))).toEqual({
      [plain]: "submitted",
      [long]: "submitted",
      [refused]: "failed",
      [busy]: "retry",
      [taken]: "skipped",
      [early]: "submitted",
    });
    expect(await messageRow(plain)).toMatchObject({ status: "submitted", submittedAt: expect.any(Date) });
    expect((await messageParts(long)).map((part) => part.providerId)).toEqual(["slice-long-1", "slice-long-2"]);
    expect((await messageRow(long))?.status).toBe("submitted");
    // Refused after its first part was accepted: that part kept, the other one refunded.
    expect(await messageRow(refused)).toMatchObject({ status: "failed", error: "Invalid destination" });
    expect((await messageParts(refused)).map((part) => part.providerId)).toEqual(["slice-refused-1"]);
    expect((await getBalance(user.id)) - balance).toBe((await messageRow(refused))!.credits / 2);
    expect(await messageRow(busy)).toMatchObject({ status: "queued", error: "Retrying: SMSC busy", attempts: 1 });
    expect(await outboxHas(busy)).toBe(true);
    expect(await messageRow(taken)).toMatchObject({ status: "queued", attempts: 0 });
    // The receipt that came before its answer settled it once the answer was recorded.
    expect(await messageRow(early)).toMatchObject({ status: "undelivered", error: "Carrier error 001" });
    expect(await pendingFor("slice-early-1")).toEqual([]);
    expect(await eventsOf(user.id, early)).toEqual(["message.sent:submitted", "message.failed:undelivered"]);
    expect(await eventsOf(user.id, refused)).toEqual(["message.failed:failed"]);
    expect(await eventsOf(user.id, plain)).toEqual(["message.sent:submitted"]);
  });

  itOnSqlite("records the answers of a slice whose other group's claim failed, then fails the job", async () => {
    const user = await customer();
    const queue = async () => (await queueMessage(user.id, { to: "+12025550194", body: "claimed apart" })).id;
    const [first, refused, last] = [await queue(), await queue(), await queue()];
    // A real failure of the claim's statement for one message, as a database restart would give.
    getSqlite().exec(
      `create temp trigger fail_claim before update of status on sms_messages when old.id = ${refused}
       begin select raise(abort, 'the database went away'); end`,
    );
    // One group per message, claimed and sent at once, as the SMPP transport does.
    const perMessage: SmsTransport = {
      name: "per-message",
      async submitMany(messages, claim) {
        const outcomes = await Promise.all(
          messages.map(async (sms): Promise<[number, SubmitOutcome]> => {
            if (!(await claim([sms.id])).has(sms.id)) return [sms.id, { kind: "not-claimed" }];
            return [sms.id, { kind: "accepted", acks: [{ part: 1, providerId: `claimed-apart-${sms.id}` }] }];
          }),
        );
        return new Map(outcomes);
      },
      async close() {},
    };
    try {
      await expect(sendQueuedMessages(perMessage, [first, refused, last])).rejects.toThrow("the database went away");
    } finally {
      getSqlite().exec("drop trigger fail_claim");
    }
    // The one that left is recorded (not left submitting, to end unknown). The other two were claimed
    // together, one statement in the worker's next state-change transaction, so the failure left both
    // queued, unsent, for the job's retry; nothing of theirs was written.
    expect(await messageRow(first)).toMatchObject({ status: "submitted" });
    expect((await messageParts(first)).map((part) => part.providerId)).toEqual([`claimed-apart-${first}`]);
    for (const unsent of [refused, last]) {
      expect(await messageRow(unsent)).toMatchObject({ status: "queued", attempts: 0 });
      expect(await messageParts(unsent)).toEqual([]);
    }
  });

  itOnSqlite(
    "a claim that fails beside receipts in one transaction fails alone: the receipts are applied",
    async () => {
      const user = await customer();
      const delivered = await accepted(user.id, "beside");
      const { id: refused } = await queueMessage(user.id, { to: "+12025550195", body: "claimed beside" });
      getSqlite().exec(
        `create temp trigger fail_claim before update of status on sms_messages when old.id = ${refused}
       begin select raise(abort, 'the database went away'); end`,
      );
      // Another connection holds the write lock, so the first state change waits and the next two gather
      // behind it: one transaction for a receipt and a claim.
      const other = new Database(databaseFile());
      other.exec("begin immediate");
      try {
        const first = applyReceipts([receipt("beside-nobody-1", "delivered")]);
        const receipts = applyReceipts([receipt("beside-1", "delivered")]);
        const claim = claimMessage(refused);
        other.exec("commit");
        await first;
        await expect(claim).rejects.toThrow("the database went away");
        await receipts;
      } finally {
        other.close();
        getSqlite().exec("drop trigger fail_claim");
      }
      expect(await messageRow(delivered)).toMatchObject({ status: "delivered" });
      expect(await messageRow(refused)).toMatchObject({ status: "queued", attempts: 0 });
      expect(await outboxHas(refused)).toBe(true);
    },
  );

  it("keeps the SMSC's answers while another process holds the write lock past the usual patience", async () => {
    const user = await customer();
    const { id } = await queueMessage(user.id, { to: "+12025550193", body: "patient" });
    // Another process (here a second connection) writes for 6 s: longer than the 5 s other writes wait.
    const other = new Database(databaseFile());
    const answered = sendQueuedMessages(
      {
        name: "held",
        async submitMany(messages, claim) {
          await claim(messages.map((sms) => sms.id));
          other.exec("begin immediate");
          setTimeout(() => other.exec("commit"), 6_000);
          return new Map(
            messages.map((sms) => [sms.id, { kind: "accepted", acks: [{ part: 1, providerId: "held-1" }] }]),
          );
        },
        async close() {},
      },
      [id],
    );
    try {
      expect((await answered).get(id)).toEqual({ kind: "submitted" });
    } finally {
      other.close();
    }
    expect(await messageRow(id)).toMatchObject({ status: "submitted" });
    expect((await messageParts(id)).map((part) => part.providerId)).toEqual(["held-1"]);
  }, 30_000);

  it("hands the transport no more messages than its capacity and two slices until their answers are written", async () => {
    const user = await customer();
    await grantCredits(user.id, 8 * RECORD_SLICE);
    const many = Array.from({ length: 8 * RECORD_SLICE }, (_, i) => ({ to: "+12025550196", body: `gated ${i}` }));
    const ids = (await queueMessages(user.id, many, { waitForJobs: false })).messages.map((message) => message.id);
    // A bind with a window of 10 (and a group of 5 claimed beyond it): 65 messages may be out at once,
    // so two slices of 25; the third waits until the first's answers are written.
    let inside = 0;
    let most = 0;
    const narrow: SmsTransport = {
      name: "narrow",
      capacity: 15,
      async submitMany(messages, claim) {
        inside += messages.length;
        most = Math.max(most, inside);
        const claimed = await claim(messages.map((sms) => sms.id));
        // The SMSC answers a moment later; the slice's messages count until its answers are written.
        await new Promise((resume) => setImmediate(resume));
        const answers = messages.map((sms): [number, SubmitOutcome] =>
          claimed.has(sms.id)
            ? [sms.id, { kind: "accepted", acks: [{ part: 1, providerId: `gated-${sms.id}` }] }]
            : [sms.id, { kind: "not-claimed" }],
        );
        inside -= messages.length;
        return new Map(answers);
      },
      async close() {},
    };
    const outcomes = await sendQueuedMessages(narrow, ids);
    // Before, every slice went at once: all 200 messages out before any answer was written.
    expect(unrecordedLimit(15)).toBe(65);
    expect(most).toBe(2 * RECORD_SLICE);
    expect([...outcomes.values()].every((outcome) => outcome.kind === "submitted")).toBe(true);
    expect(unrecordedMessages()).toBe(0);
  });
});
