// Against the loopback SMSC: a message goes out from its sender with that sender's TON/NPI, one
// without a sender from SMPP_SOURCE_ADDR as before, and a STOP that arrives while it waits wins.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { applyInboundKeyword } from "#app/modules/inbound/keywords.server.ts";
import { createSender } from "#app/modules/senders/senders.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import type { TestSmsc } from "#tests/support/smpp-server.ts";
import { type SmppGateway, startSmppGateway } from "#tests/support/smpp-gateway.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, waitForStatus } from "#tests/support/sms.ts";

let smsc: TestSmsc;
let gateway: SmppGateway | undefined;

beforeAll(async () => {
  gateway = await startSmppGateway();
  smsc = gateway.smsc;
});
afterAll(() => gateway?.stop());

const submitsTo = (destination: string) => smsc.accepted.filter((s) => s.destination === destination);

describe("the sender on the wire", () => {
  it("submits with the message's sender and its TON/NPI, and the gateway default without one", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    await createSender({ address: "+447700900601", kind: "long_number", ton: 1, npi: 1, userId: user.id });
    await createSender({ address: "60601", kind: "short_code", ton: 3, npi: 0, userId: user.id });
    await createSender({ address: "Acme Ltd", kind: "alphanumeric", ton: 5, npi: 0, userId: user.id });
    const long = await queueMessage(user.id, { to: "+12025550601", body: "from a number" });
    const short = await queueMessage(user.id, { to: "+12025550602", body: "from a short code", from: "60601" });
    const name = await queueMessage(user.id, { to: "+12025550603", body: "from a name", from: "Acme Ltd" });
    const other = await createTestUser();
    await grantCredits(other.id, 1);
    const shared = await queueMessage(other.id, { to: "+12025550604", body: "from the gateway" });
    for (const { id } of [long, short, name, shared]) await waitForStatus(id, "delivered");
    expect(submitsTo("12025550601")[0]).toMatchObject({ source: "447700900601", sourceTon: 1, sourceNpi: 1 });
    expect(submitsTo("12025550602")[0]).toMatchObject({ source: "60601", sourceTon: 3, sourceNpi: 0 });
    expect(submitsTo("12025550603")[0]).toMatchObject({ source: "Acme Ltd", sourceTon: 5, sourceNpi: 0 });
    expect(submitsTo("12025550604")[0]).toMatchObject({ source: "SMSGateway", sourceTon: 5 });
  });

  it("sends the free STOP confirmation from the sender written to, and nothing else to that phone", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    await createSender({ address: "+447700900602", kind: "long_number", ton: 1, npi: 1, userId: user.id });
    const outcome = await applyInboundKeyword({
      phone: "12025550605",
      toAddress: "447700900602",
      accountId: user.id,
      body: "stop",
      receivedAt: Date.now(),
    });
    await waitForStatus(outcome!.replyId!, "delivered");
    expect(submitsTo("12025550605")).toEqual([expect.objectContaining({ source: "447700900602", sourceTon: 1 })]);
    await expect(queueMessage(user.id, { to: "+12025550605", body: "promo" })).rejects.toMatchObject({
      code: "recipient_opted_out",
    });
    expect(await getBalance(user.id)).toBe(5);
  });
});
