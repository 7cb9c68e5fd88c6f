// Inbound SMS over real SMPP: a loopback SMSC sends deliver_sm and data_sm PDUs as a phone's carrier
// would; the gateway stores each message (parts joined, retransmissions once) before acknowledging.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { inboundMessages, inboundOutbox } from "#app/db/schema/inbound.ts";
import { senders } from "#app/db/schema/senders.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { processInbound } from "#app/modules/inbound/process.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { DEFAULT_KEYWORD_REPLIES } from "#app/modules/opt-outs/keywords.ts";
import { receiveInbound } from "#app/modules/inbound/receive.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { concatUdh } from "#app/modules/sms/transports/smpp.server.ts";
import { encodeGsm7 } from "#app/modules/messaging/segments.ts";
import type { InboundSms } from "#app/modules/messaging/transport-types.ts";
import { workCounters } from "#app/utils/work-counts.server.ts";
import { smsInbound } from "#worker/jobs/sms-inbound.ts";
import type { TestSmsc } from "#tests/support/smpp-server.ts";
import { type SmppGateway, startSmppGateway } from "#tests/support/smpp-gateway.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, waitForStatus } from "#tests/support/sms.ts";
import { inboundFrom, inboundOutboxHas, newPhone, ucs2, udh16 } from "#tests/support/inbound.ts";
import { waitFor } from "#tests/support/wait.ts";

let smsc: TestSmsc;
let gateway: SmppGateway | undefined;

beforeAll(async () => {
  gateway = await startSmppGateway({ transport: { onInbound: receiveInbound }, jobs: [smsInbound] });
  smsc = gateway.smsc;
});
afterAll(() => gateway?.stop());

const digits = (phone: string) => phone.slice(1);

describe("an inbound SMS is stored before it is acknowledged", () => {
  it("decodes GSM-7 with the extension table, stores it, then processes it", async () => {
    const phone = newPhone();
    const text = "Hi! Price is 5€ [ok] {yes} ~ü";
    const status = await smsc.sendInbound({
      source: digits(phone),
      destination: "SMSGateway",
      shortMessage: Buffer.from(encodeGsm7(text)),
    });
    expect(status).toBe(0);
    // Answered only once stored: the row is there when the answer is.
    const [row] = await inboundFrom(phone);
    expect(row).toMatchObject({ body: text, encoding: "GSM-7", parts: 1, toAddress: "SMSGateway", readAt: null });
    await waitFor(async () => !(await inboundOutboxHas(row.id)), { what: "the inbound processing job" });
  });

  it("decodes Latin-1 (data_coding 3)", async () => {
    const phone = newPhone();
    expect(
      await smsc.sendInbound({
        source: digits(phone),
        destination: "SMSGateway",
        dataCoding: 3,
        shortMessage: Buffer.from("Grüße, café", "latin1"),
      }),
    ).toBe(0);
    expect((await inboundFrom(phone))[0]).toMatchObject({ body: "Grüße, café", encoding: "Latin-1" });
  });

  it("joins a three-part UCS-2 message with a 16-bit reference, whatever order the parts come in", async () => {
    const phone = newPhone();
    const parts = ["Привет, это первая часть. ", "Вторая часть 👋 ", "и третья."];
    const send = (sequence: number) =>
      smsc.sendInbound({
        source: digits(phone),
        destination: "SMSGateway",
        dataCoding: 8,
        esmClass: 0x40,
        shortMessage: Buffer.concat([udh16(0xbeef, 3, sequence), ucs2(parts[sequence - 1])]),
      });
    expect(await send(2)).toBe(0);
    expect(await send(1)).toBe(0);
    expect(await inboundFrom(phone)).toEqual([]);
    expect(await send(3)).toBe(0);
    const rows = await inboundFrom(phone);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: parts.join(""), encoding: "UCS-2", parts: 3 });
    // A part sent again after the message was joined starts nothing new.
    expect(await send(2)).toBe(0);
    expect(await inboundFrom(phone)).toHaveLength(1);
  });

  it("joins a message whose parts say where they belong with the SAR options (data_sm, message_payload)", async () => {
    const phone = newPhone();
    const parts = ["The first half and ", "the second half."];
    for (const [index, part] of parts.entries()) {
      const status = await smsc.sendInbound({
        command: "data_sm",
        source: digits(phone),
        destination: "SMSGateway",
        tlvs: {
          message_payload: Buffer.from(encodeGsm7(part)),
          sar_msg_ref_num: 0x1234,
          sar_total_segments: 2,
          sar_segment_seqnum: index + 1,
        },
      });
      expect(status).toBe(0);
    }
    expect(await inboundFrom(phone)).toEqual([expect.objectContaining({ body: parts.join(""), parts: 2 })]);
  });

  it("joins an 8-bit reference UDH message too", async () => {
    const phone = newPhone();
    for (const [index, part] of ["Part one, ", "part two"].entries()) {
      await smsc.sendInbound({
        source: digits(phone),
        destination: "SMSGateway",
        esmClass: 0x40,
        shortMessage: Buffer.concat([concatUdh(7, 2, index + 1), Buffer.from(encodeGsm7(part))]),
      });
    }
    expect(await inboundFrom(phone)).toEqual([expect.objectContaining({ body: "Part one, part two", parts: 2 })]);
  });

  it("stores the same PDU sent twice (its answer lost) once", async () => {
    const phone = newPhone();
    const pdu = { source: digits(phone), destination: "SMSGateway", shortMessage: Buffer.from(encodeGsm7("YES")) };
    expect(await smsc.sendInbound(pdu)).toBe(0);
    expect(await smsc.sendInbound(pdu)).toBe(0);
    expect(await inboundFrom(phone)).toHaveLength(1);
  });
});

describe("who an inbound message belongs to", () => {
  async function customersWhoWroteTo(phone: string, count: number) {
    const customers = [];
    for (let i = 0; i < count; i++) {
      const user = await createTestUser();
      await grantCredits(user.id, 5);
      const { id } = await queueMessage(user.id, { to: phone, body: "Are you coming?" });
      await waitForStatus(id, "delivered");
      customers.push(user);
    }
    return customers;
  }

  it("on the shared sender: the one account that wrote to that phone; a stranger's: nobody", async () => {
    const phone = newPhone();
    const [only] = await customersWhoWroteTo(phone, 1);
    await smsc.sendInbound({ source: digits(phone), destination: "SMSGateway", shortMessage: Buffer.from("Yes") });
    expect((await inboundFrom(phone))[0].userId).toBe(only.id);

    const stranger = newPhone();
    await smsc.sendInbound({ source: digits(stranger), destination: "SMSGateway", shortMessage: Buffer.from("Hi") });
    expect((await inboundFrom(stranger))[0].userId).toBeNull();
  });

  it("on the shared sender with two accounts in the window: nobody's, whichever wrote last", async () => {
    const phone = newPhone();
    await customersWhoWroteTo(phone, 2);
    await smsc.sendInbound({ source: digits(phone), destination: "SMSGateway", shortMessage: Buffer.from("YES") });
    expect((await inboundFrom(phone))[0]).toMatchObject({ userId: null, body: "YES" });
  });

  it("to a number assigned to an account: that account, whoever sent to the phone last", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    await grantCredits(other.id, 5);
    const phone = newPhone();
    const { id } = await queueMessage(other.id, { to: phone, body: "Hello" });
    await waitForStatus(id, "delivered");
    await getDb()
      .insert(senders)
      .values({ address: "+4479460001", kind: "long_number", ton: 1, npi: 1, userId: owner.id, updatedAt: new Date() })
      .run();
    await smsc.sendInbound({ source: digits(phone), destination: "4479460001", shortMessage: Buffer.from("Hi") });
    expect((await inboundFrom(phone))[0]).toMatchObject({ userId: owner.id, toAddress: "+4479460001" });
  });

  it("reads a number with TON 0 (unknown) of 8 digits or more as international, a short code as it is", async () => {
    const phone = newPhone();
    await smsc.sendInbound({
      source: digits(phone),
      sourceTon: 0,
      destination: "73055",
      destTon: 3,
      shortMessage: Buffer.from("Hi"),
    });
    expect((await inboundFrom(phone))[0]).toMatchObject({ fromPhone: phone, toAddress: "73055" });
  });

  it("a batch: each message its owner, a retransmission in it once, a part joined in arrival order, and statements that do not grow with it", async () => {
    const [mine, twice, stranger] = [newPhone(), newPhone(), newPhone()];
    const [only] = await customersWhoWroteTo(mine, 1);
    await customersWhoWroteTo(twice, 2);
    const owner = await createTestUser();
    await getDb()
      .insert(senders)
      .values({ address: "+4479460002", kind: "long_number", ton: 1, npi: 1, userId: owner.id, updatedAt: new Date() })
      .run();
    const sms = (from: string, text: string, to = "SMSGateway", concat: InboundSms["concat"] = null): InboundSms => ({
      from,
      to,
      dataCoding: 0,
      payload: Buffer.from(encodeGsm7(text)),
      concat,
    });
    await receiveInbound([
      sms(mine, "Yes"),
      sms(stranger, "Split ", "SMSGateway", { reference: 7, total: 2, sequence: 1 }),
      sms(twice, "No"),
      sms(mine, "Yes"),
      sms(stranger, "Hi", "+4479460002"),
      sms(stranger, "message", "SMSGateway", { reference: 7, total: 2, sequence: 2 }),
    ]);
    const stored = await getDb()
      .select()
      .from(inboundMessages)
      .where(inArray(inboundMessages.fromPhone, [mine, twice, stranger]))
      .orderBy(asc(inboundMessages.id))
      .all();
    expect(stored.map(({ fromPhone, body, userId }) => ({ fromPhone, body, userId }))).toEqual([
      { fromPhone: mine, body: "Yes", userId: only.id },
      { fromPhone: twice, body: "No", userId: null },
      { fromPhone: stranger, body: "Hi", userId: owner.id },
      { fromPhone: stranger, body: "Split message", userId: null },
    ]);
    for (const { id } of stored) expect(await inboundOutboxHas(id)).toBe(true);

    // Single-part messages are stored a statement each for the batch (decision 113): 20 cost what 2 do,
    // less one statement for each of the 18 more (a timer's sweep in this process may fall in either).
    const statementsFor = async (count: number) => {
      // The jobs processing the batches before it run in this process too: counted once they are done.
      await waitFor(async () => (await getDb().select().from(inboundOutbox).all()).length === 0, {
        what: "the earlier batches processed",
      });
      const before = workCounters().statements;
      await receiveInbound(Array.from({ length: count }, () => sms(newPhone(), "Hello")));
      return workCounters().statements - before;
    };
    const [two, twenty] = [await statementsFor(2), await statementsFor(20)];
    expect(twenty - two).toBeLessThan(18);
  });

  it("to an address that is not the shared sender and nobody's: unassigned", async () => {
    const phone = newPhone();
    await smsc.sendInbound({ source: digits(phone), destination: "4479460000", shortMessage: Buffer.from("Hi") });
    expect((await inboundFrom(phone))[0]).toMatchObject({ userId: null, toAddress: "+4479460000" });
  });
});

describe("keywords in real inbound PDUs", () => {
  const submitsTo = (phone: string, body: string) =>
    smsc.accepted.filter((submit) => submit.destination === digits(phone) && submit.text === body);
  const text = (phone: string, body: string) =>
    smsc.sendInbound({ source: digits(phone), destination: "SMSGateway", shortMessage: Buffer.from(encodeGsm7(body)) });

  async function customerWhoWroteTo(phone: string) {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const { id } = await queueMessage(user.id, { to: phone, body: "Our sale starts today" });
    await waitForStatus(id, "delivered");
    return user;
  }

  it("STOP opts the phone out (a send is refused, nothing charged); START lets the next send out", async () => {
    const phone = newPhone();
    const user = await customerWhoWroteTo(phone);
    expect(await text(phone, "stop please")).toBe(0);
    await waitFor(() => submitsTo(phone, DEFAULT_KEYWORD_REPLIES.stop).length === 1, { what: "the STOP confirmation" });
    const balance = await getBalance(user.id);
    await expect(queueMessage(user.id, { to: phone, body: "Last chance!" })).rejects.toBeInstanceOf(OptedOutError);
    expect(await getBalance(user.id)).toBe(balance);

    expect(await text(phone, "START")).toBe(0);
    await waitFor(() => submitsTo(phone, DEFAULT_KEYWORD_REPLIES.start).length === 1, { what: "the START reply" });
    const { id } = await queueMessage(user.id, { to: phone, body: "Welcome back" });
    await waitForStatus(id, "delivered");
    expect(submitsTo(phone, "Welcome back")).toHaveLength(1);
  });

  it("STOP with two accounts in the window is the number's opt-out: both are refused, and the reply is nobody's", async () => {
    const phone = newPhone();
    const [first, second] = [await customerWhoWroteTo(phone), await customerWhoWroteTo(phone)];
    // A reply nobody owns goes out on the operator's (the first admin's) account.
    await createTestUser("admin");
    expect(await text(phone, "STOP")).toBe(0);
    expect((await inboundFrom(phone))[0]).toMatchObject({ userId: null, body: "STOP" });
    await waitFor(() => submitsTo(phone, DEFAULT_KEYWORD_REPLIES.stop).length === 1, { what: "the STOP confirmation" });
    for (const user of [first, second])
      await expect(queueMessage(user.id, { to: phone, body: "Still there?" })).rejects.toBeInstanceOf(OptedOutError);
  });

  it("HELP is answered once, however often its PDU comes or its job runs", async () => {
    const phone = newPhone();
    await customerWhoWroteTo(phone);
    expect(await text(phone, "Help")).toBe(0);
    expect(await text(phone, "Help")).toBe(0);
    const [row] = await inboundFrom(phone);
    await waitFor(() => submitsTo(phone, DEFAULT_KEYWORD_REPLIES.help).length === 1, { what: "the HELP reply" });
    // The job again (a worker that crashed before dropping the outbox row): no second reply.
    await getDb().insert(inboundOutbox).values({ messageId: row.id, dueAt: new Date() }).run();
    expect(await processInbound([row.id])).toEqual({ processed: 1, keywords: { help: 1 } });
    const replies = await getDb()
      .select({ id: smsMessages.id })
      .from(smsMessages)
      .where(and(eq(smsMessages.toPhone, phone), eq(smsMessages.body, DEFAULT_KEYWORD_REPLIES.help)))
      .all();
    expect(replies).toHaveLength(1);
  });
});
