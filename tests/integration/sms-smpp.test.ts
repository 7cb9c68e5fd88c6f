// The whole send path against a real SMPP server on loopback: queue -> BullMQ -> worker -> SmppTransport
// -> TestSmsc -> receipts -> SQLite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getDb } from "#app/db/client.server.ts";
import { smsPendingReceipts } from "#app/db/schema/sms.ts";
import { getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { queueMessage, queueMessages } from "#app/modules/sms/send.server.ts";
import { SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import { SMPP_STATUS, type TestSmsc } from "#tests/support/smpp-server.ts";
import { type SmppGateway, startSmppGateway } from "#tests/support/smpp-gateway.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, ledgerKeys, messageParts, messageRow, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.SMS_RETRY_DELAY_MS = "50";
process.env.SMS_RETRY_ATTEMPTS = "4";

let smsc: TestSmsc;
let gateway: SmppGateway | undefined;

beforeAll(async () => {
  gateway = await startSmppGateway({ transport: { throttlePauseMs: 20 } });
  smsc = gateway.smsc;
});
afterAll(() => gateway?.stop());

async function customer(credits: number) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  return user;
}

const submitsTo = (destination: string) => smsc.accepted.filter((s) => s.destination === destination);

describe("what arrives at the SMSC", () => {
  it("sends GSM-7 as data_coding 0 in unpacked septets, with a receipt requested", async () => {
    const user = await customer(5);
    const body = "Hello [world] €5 @home";
    const { id } = await queueMessage(user.id, { to: "+12025550101", body });
    await waitForStatus(id, "delivered");
    const [submit] = submitsTo("12025550101");
    expect(submit).toMatchObject({
      dataCoding: 0,
      esmClass: 0,
      udh: null,
      registeredDelivery: 1,
      destTon: 1,
      destNpi: 1,
      source: "SMSGateway",
      sourceTon: 5,
      text: body,
      userMessageReference: id & 0xffff,
    });
    expect([...submit.shortMessage]).toEqual([
      0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x1b, 0x3c, 0x77, 0x6f, 0x72, 0x6c, 0x64, 0x1b, 0x3e, 0x20, 0x1b, 0x65, 0x35,
      0x20, 0x00, 0x68, 0x6f, 0x6d, 0x65,
    ]);
  });

  it("sends UCS-2 as data_coding 8 in UTF-16BE without a byte order mark", async () => {
    const user = await customer(5);
    const body = "Привет 😀";
    const { id } = await queueMessage(user.id, { to: "+12025550102", body });
    await waitForStatus(id, "delivered");
    const [submit] = submitsTo("12025550102");
    expect(submit.dataCoding).toBe(8);
    expect(submit.udh).toBeNull();
    expect(submit.shortMessage.subarray(0, 4)).toEqual(Buffer.from([0x04, 0x1f, 0x04, 0x40]));
    expect(submit.shortMessage.subarray(-4)).toEqual(Buffer.from([0xd8, 0x3d, 0xde, 0x00]));
    expect(submit.shortMessage.length).toBe(18);
    expect(submit.text).toBe(body);
  });

  it("sends a 3-part message as concatenated parts with an 8-bit reference UDH", async () => {
    const user = await customer(5);
    const body = `${"a".repeat(153)}${"b".repeat(153)}${"c".repeat(10)}`;
    const { id, segments } = await queueMessage(user.id, { to: "+12025550103", body });
    expect(segments).toBe(3);
    await waitForStatus(id, "delivered");
    const parts = submitsTo("12025550103").sort((a, b) => a.concat!.sequence - b.concat!.sequence);
    expect(parts).toHaveLength(3);
    for (const [i, part] of parts.entries()) {
      expect(part.esmClass & 0x40).toBe(0x40);
      expect(part.dataCoding).toBe(0);
      expect([...part.udh!]).toEqual([0x05, 0x00, 0x03, id & 0xff, 3, i + 1]);
    }
    expect(parts.map((p) => p.payload.length)).toEqual([153, 153, 10]);
    expect(parts.map((p) => p.text).join("")).toBe(body);
    expect((await messageParts(id)).map((p) => p.status)).toEqual(["delivered", "delivered", "delivered"]);
    expect(await getBalance(user.id)).toBe(2);
  });
});

describe("delivery receipts", () => {
  it("a DELIVRD receipt makes the message delivered", async () => {
    const user = await customer(1);
    const { id } = await queueMessage(user.id, { to: "+12025550111", body: "Your code is 1234" });
    const row = await waitForStatus(id, "delivered");
    expect(row.submittedAt).not.toBeNull();
    expect(row.doneAt).not.toBeNull();
    expect((await messageParts(id))[0].providerId).toBe(submitsTo("12025550111")[0].messageId);
    expect(await getBalance(user.id)).toBe(0);
  });

  it("reads receipts from their text alone, and maps UNDELIV to undelivered with the error", async () => {
    smsc.options.receiptTlvs = false;
    smsc.options.receiptFor = () => "UNDELIV";
    try {
      const user = await customer(1);
      const { id } = await queueMessage(user.id, { to: "+12025550112", body: "hi" });
      const row = await waitForStatus(id, "undelivered");
      expect(row.error).toBe("Carrier error 001");
    } finally {
      smsc.options.receiptTlvs = true;
      smsc.options.receiptFor = undefined;
    }
  });

  it("never moves a status back: a late ENROUTE leaves delivered alone", async () => {
    const user = await customer(1);
    const { id } = await queueMessage(user.id, { to: "+12025550113", body: "hi" });
    await waitForStatus(id, "delivered");
    const acked = smsc.counters.receiptsAcked;
    smsc.sendReceipt(submitsTo("12025550113")[0].messageId, "ENROUTE");
    await waitFor(() => smsc.counters.receiptsAcked > acked);
    expect((await messageRow(id))?.status).toBe("delivered");
  });

  it("delivers a multipart message only when every part is delivered", async () => {
    smsc.options.receiptFor = (s) => (s.concat?.sequence === 2 ? null : "DELIVRD");
    try {
      const user = await customer(3);
      const { id } = await queueMessage(user.id, { to: "+12025550114", body: "z".repeat(200) });
      await waitFor(async () => (await messageParts(id)).filter((p) => p.status === "delivered").length === 1, {
        what: "part 1 delivered",
      });
      expect((await messageRow(id))?.status).toBe("submitted");
      smsc.sendReceipt(submitsTo("12025550114").find((s) => s.concat?.sequence === 2)!.messageId, "DELIVRD");
      await waitForStatus(id, "delivered");
    } finally {
      smsc.options.receiptFor = undefined;
    }
  });

  it("applies a receipt that overtakes its submit_sm_resp", async () => {
    smsc.options.responseDelayMs = 150;
    try {
      const user = await customer(1);
      const { id } = await queueMessage(user.id, { to: "+12025550115", body: "race" });
      await waitFor(async () => (await getDb().select().from(smsPendingReceipts).all()).length > 0, {
        what: "the early receipt to be kept",
      });
      await waitForStatus(id, "delivered");
      expect(await getDb().select().from(smsPendingReceipts).all()).toEqual([]);
    } finally {
      smsc.options.responseDelayMs = 0;
    }
  });
});

describe("errors from the SMSC", () => {
  it("retries ESME_RTHROTTLED with backoff until it is accepted", async () => {
    const user = await customer(1);
    const refused = smsc.counters.refused;
    smsc.respondWith(SMPP_STATUS.ESME_RTHROTTLED, SMPP_STATUS.ESME_RTHROTTLED);
    const { id } = await queueMessage(user.id, { to: "+12025550121", body: "slow down" });
    const row = await waitForStatus(id, "delivered");
    expect(smsc.counters.refused - refused).toBe(2);
    expect(submitsTo("12025550121")).toHaveLength(1);
    expect(row.attempts).toBe(3);
    expect(row.error).toBeNull();
    expect(await getBalance(user.id)).toBe(0);
  });

  it("fails a message refused with a permanent error and refunds its credits once", async () => {
    const user = await customer(2);
    smsc.respondWith(SMPP_STATUS.ESME_RINVDSTADR);
    const { id } = await queueMessage(user.id, { to: "+12025550122", body: "nobody there" });
    const row = await waitForStatus(id, "failed");
    expect(row.error).toBe("Rejected by the SMSC: ESME_RINVDSTADR (0x0000000b)");
    expect(await getBalance(user.id)).toBe(2);
    expect((await ledgerKeys(user.id)).filter((k) => k.startsWith("msg:"))).toEqual([
      `msg:${id}:debit`,
      `msg:${id}:refund`,
    ]);
    expect(await getLedgerSum(user.id)).toBe(2);
  });

  it("refunds only the parts the SMSC refused", async () => {
    const user = await customer(3);
    smsc.respondWith(0, SMPP_STATUS.ESME_RINVDSTADR);
    const { id } = await queueMessage(user.id, { to: "+12025550123", body: "q".repeat(400) });
    await waitForStatus(id, "failed");
    expect((await messageParts(id)).map((p) => p.part)).toEqual([1, 3]);
    expect(await getBalance(user.id)).toBe(1);
  });

  it("gives up after SMS_RETRY_ATTEMPTS temporary errors: failed and refunded", async () => {
    const user = await customer(1);
    smsc.respondWith(...Array(4).fill(SMPP_STATUS.ESME_RMSGQFUL));
    const { id } = await queueMessage(user.id, { to: "+12025550124", body: "full" });
    const row = await waitForStatus(id, "failed");
    expect(row.error).toBe("Gave up retrying: SMSC busy: ESME_RMSGQFUL (0x00000014)");
    expect(row.attempts).toBe(4);
    expect(await getBalance(user.id)).toBe(1);
  });
});

describe("the SMSC dropping the connection", () => {
  it("loses nothing and duplicates nothing mid-batch", async () => {
    const user = await customer(40);
    const before = { ...smsc.counters };
    // Mid-write: the transport writes a group of up to half the window (5) of submits at once, so the
    // connection drops with the rest of that write still unanswered. (After 5 it would drop between
    // two writes, and whether anything was in flight would depend on timing.)
    smsc.dropAfter(3);
    const { messages } = await queueMessages(
      user.id,
      Array.from({ length: 40 }, (_, i) => ({
        to: `+1202555${String(2000 + i).padStart(4, "0")}`,
        body: `batch message ${i}`,
      })),
    );
    for (const m of messages) await waitForStatus(m.id, "delivered", 30_000);
    expect(smsc.counters.dropped - before.dropped).toBe(1);
    // Submits were in flight when it dropped (at most the window of 10): they reached the dead
    // connection and were never answered, so these are the ones the gateway had to send again.
    const inFlight = smsc.counters.ignored - before.ignored;
    expect(inFlight).toBeGreaterThan(0);
    expect(inFlight).toBeLessThanOrEqual(10);
    expect(smsc.counters.binds - before.binds).toBeGreaterThanOrEqual(1);
    expect(smsc.counters.accepted - before.accepted).toBe(40);
    expect(smsc.counters.duplicates - before.duplicates).toBe(0);
    for (const m of messages) expect(await messageParts(m.id)).toHaveLength(1);
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
  });
});

describe("the SMPP session", () => {
  it("keeps the link alive with enquire_link and unbinds when it closes", async () => {
    const before = { ...smsc.counters };
    const session = new SmppTransport({
      url: smsc.url(),
      sourceAddr: "SMSGateway",
      tps: 0,
      window: 1,
      onReceipts: applyReceipts,
      enquireLinkMs: 20,
    });
    expect(await session.ready()).toBe(true);
    await waitFor(() => smsc.counters.enquireLinks - before.enquireLinks >= 2, { what: "two enquire_link" });
    await session.close();
    expect(smsc.counters.unbinds - before.unbinds).toBe(1);
  });

  it("drops a link whose submit_sm_resp is late and counts every part in flight as not accepted", async () => {
    const before = { ...smsc.counters };
    const session = new SmppTransport({
      url: smsc.url(),
      sourceAddr: "SMSGateway",
      tps: 0,
      window: 10,
      onReceipts: applyReceipts,
      responseTimeoutMs: 50,
      reconnectMinMs: 10,
    });
    smsc.options.responseDelayMs = 1_000;
    try {
      expect(await session.ready()).toBe(true);
      const messages = [1, 2, 3].map((id) => ({ id, to: `+120255503${id}0`, body: "late ".repeat(40), parts: [1, 2] }));
      const outcomes = await session.submitMany(messages, async (ids) => new Set(ids));
      // Both parts were written and never answered: each is an attempt without a command status.
      const unanswered = { upstream: "env", bind: 1, commandStatus: null, smscMessageId: null };
      const attempts = [1, 2].map((part) => ({ ...unanswered, part }));
      const lost = { kind: "temporary", reason: "Connection to the SMSC lost", acks: [], attempts };
      expect([...outcomes]).toEqual([
        [1, lost],
        [2, lost],
        [3, lost],
      ]);
      expect(session.bindStatus.inFlight).toBe(0);
      await waitFor(() => smsc.counters.binds - before.binds >= 2, { what: "the link bound again" });
    } finally {
      smsc.options.responseDelayMs = 0;
      await session.close();
    }
  });

  /** Groups of two parts (half the window), no rate limit, and answers the test holds back waited for. */
  const windowOfFour = () =>
    new SmppTransport({
      url: smsc.url(),
      sourceAddr: "SMSGateway",
      tps: 0,
      window: 4,
      onReceipts: applyReceipts,
      responseTimeoutMs: 60_000,
    });

  it("claims the next group while the window is full, and writes it only when the window has room", async () => {
    const session = windowOfFour();
    // The SMSC answers nothing during the test: the window (4) fills with the first two groups of two.
    smsc.options.responseDelayMs = 30_000;
    try {
      expect(await session.ready()).toBe(true);
      const messages = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => ({ id, to: `+120255504${id}0`, body: "Held", parts: [1] }));
      const atSmsc = () => messages.filter((sms) => submitsTo(sms.to.slice(1)).length > 0).map((sms) => sms.id);
      const claims: number[][] = [];
      const sending = session.submitMany(messages, async (ids) => {
        claims.push(ids);
        return new Set(ids);
      });
      await waitFor(() => claims.length === 3 && atSmsc().length === 4, { what: "a third group claimed" });
      // The third group is claimed and waits for room; the fourth is not claimed (a window and one group at most).
      expect(claims).toEqual([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
      expect(session.bindStatus.inFlight).toBe(4);
      await session.close();
      const outcomes = await sending;
      const lost = { kind: "temporary", reason: "Connection to the SMSC lost", acks: [] };
      const notConnected = { kind: "temporary", reason: "Not connected to the SMSC", acks: [] };
      for (const id of [1, 2, 3, 4]) expect(outcomes.get(id)).toMatchObject(lost);
      for (const id of [5, 6, 7, 8]) expect(outcomes.get(id)).toEqual(notConnected);
      expect(claims).toHaveLength(3);
      expect(atSmsc()).toEqual([1, 2, 3, 4]);
    } finally {
      smsc.options.responseDelayMs = 0;
      await session.close();
    }
  });

  it("sends a claimed message the moment one answer frees a slot, without waiting for its group's room", async () => {
    const session = windowOfFour();
    // The SMSC answers message 1 at once and holds every other answer through the test.
    smsc.options.responseDelayFor = (submit) => (submit.destination === "12025550610" ? 0 : 30_000);
    try {
      expect(await session.ready()).toBe(true);
      const messages = [1, 2, 3, 4, 5, 6].map((id) => ({ id, to: `+120255506${id}0`, body: "Freed", parts: [1] }));
      const atSmsc = () => messages.filter((sms) => submitsTo(sms.to.slice(1)).length > 0).map((sms) => sms.id);
      const sending = session.submitMany(messages, async (ids) => new Set(ids));
      // Groups of two: [1, 2] and [3, 4] fill the window, [5, 6] is claimed; 1's answer lets 5 go alone.
      await waitFor(() => atSmsc().length === 5, { what: "message 5 sent in the slot message 1 freed" });
      expect(atSmsc()).toEqual([1, 2, 3, 4, 5]);
      expect(session.bindStatus.inFlight).toBe(4);
      await session.close();
      const outcomes = await sending;
      expect(outcomes.get(1)).toMatchObject({ kind: "accepted" });
      for (const id of [2, 3, 4, 5])
        expect(outcomes.get(id)).toMatchObject({ kind: "temporary", reason: "Connection to the SMSC lost" });
      expect(outcomes.get(6)).toEqual({ kind: "temporary", reason: "Not connected to the SMSC", acks: [] });
    } finally {
      smsc.options.responseDelayFor = undefined;
      await session.close();
    }
  });

  it("keeps trying to bind, with backoff, when the SMSC refuses the credentials", async () => {
    const before = smsc.counters.bindFailures;
    const session = new SmppTransport({
      url: smsc.url("smsgw", "wrong"),
      sourceAddr: "SMSGateway",
      tps: 0,
      window: 1,
      onReceipts: applyReceipts,
      reconnectMinMs: 10,
      connectWaitMs: 50,
    });
    try {
      await waitFor(() => smsc.counters.bindFailures - before >= 2, { what: "a second bind attempt" });
      // A submit gives up while unbound, as a temporary error, without claiming the message.
      let claimed = false;
      const outcomes = await session.submitMany([{ id: 1, to: "+12025550199", body: "x", parts: [1] }], async (ids) => {
        claimed = true;
        return new Set(ids);
      });
      expect(outcomes.get(1)).toEqual({ kind: "temporary", reason: "Not connected to the SMSC", acks: [] });
      expect(claimed).toBe(false);
    } finally {
      await session.close();
    }
  });
});
