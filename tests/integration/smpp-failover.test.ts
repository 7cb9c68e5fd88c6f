// Failover between two real loopback SMSCs (decision 138): a message moves to the second upstream
// only when the first provably did not take it, and each case checks what both SMSCs received.
import { afterEach, describe, expect, it } from "vitest";
import { applyReceipts, sendQueuedMessage } from "#app/modules/sms/dispatch.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { upstreamTransport } from "#app/modules/sms/transports/index.server.ts";
import { RoutedTransport, upstreamStates } from "#app/modules/sms/transports/routed.server.ts";
import { SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import type { UpstreamConfig } from "#app/modules/messaging/transport-types.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { SMPP_STATUS, TestSmsc, type TestSmscOptions } from "#tests/support/smpp-server.ts";
import { grantCredits, messageParts, messageRow, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const ROUTE = ["first", "second"];
const sinks = { onReceipts: applyReceipts, onInbound: async () => undefined };
const tuning = { reconnectMinMs: 50, reconnectMaxMs: 200, connectWaitMs: 500 };

let open: { transport: RoutedTransport; smscs: TestSmsc[] } | undefined;

afterEach(async () => {
  await open?.transport.close();
  for (const smsc of open?.smscs ?? []) await smsc.stop();
  open = undefined;
});

function smppUpstream(id: string, url: string): UpstreamConfig {
  return { id, name: `Carrier ${id}`, kind: "smpp", url, binds: 1, window: 10, tps: 0 };
}

/**
 * Two loopback SMSCs as the upstreams "first" and "second"; `firstBinds: false` gives the first
 * wrong credentials, so it never has a bind up.
 */
async function twoSmscs(first: TestSmscOptions = {}, { firstBinds = true, now = Date.now } = {}) {
  const smscs = [await TestSmsc.start(first), await TestSmsc.start()];
  const urls = [firstBinds ? smscs[0].url() : smscs[0].url("smsgw", "wrong"), smscs[1].url()];
  const upstreams = ROUTE.map((id, i) => upstreamTransport(smppUpstream(id, urls[i]), sinks, tuning));
  const transport = new RoutedTransport(upstreams, now);
  open = { transport, smscs };
  for (const [i, upstream] of upstreams.entries())
    if (firstBinds || i > 0) expect(await (upstream.transport as SmppTransport).ready()).toBe(true);
  return { transport, first: smscs[0], second: smscs[1], upstreams };
}

async function queued(to: string, body = "Failover test") {
  const user = await createTestUser();
  await grantCredits(user.id, 5);
  return (await queueMessage(user.id, { to, body })).id;
}

describe("failover between two upstreams", () => {
  it("sends through the second when the first has no bind up", async () => {
    const { transport, first, second } = await twoSmscs({}, { firstBinds: false });
    const id = await queued("+12025550301");

    expect(await sendQueuedMessage(transport, id, () => ROUTE)).toEqual({ kind: "submitted" });

    expect(first.counters.bindFailures).toBeGreaterThan(0);
    expect(first.counters.submitsSeen).toBe(0);
    expect(second.counters.submitsSeen).toBe(1);
    expect(second.accepted.map((s) => s.destination)).toEqual(["12025550301"]);
    expect(await messageParts(id)).toMatchObject([{ part: 1, providerId: `second:${second.accepted[0].messageId}` }]);
  });

  it("passes an upstream down for 10 s over at once, without waiting for its bind", async () => {
    let now = Date.now();
    const { transport, second, upstreams } = await twoSmscs({}, { firstBinds: false, now: () => now });
    const firstTransport = upstreams[0].transport;
    const submitMany = firstTransport.submitMany.bind(firstTransport);
    let asked = 0;
    firstTransport.submitMany = (messages, claim) => {
      asked += 1;
      return submitMany(messages, claim);
    };
    const send = async (to: string) =>
      expect(await sendQueuedMessage(transport, await queued(to), () => ROUTE)).toEqual({ kind: "submitted" });

    // Down, but not for long yet: the batch waits for a bind of the first (the connect wait), then moves on.
    await send("+12025550310");
    expect(asked).toBe(1);
    now += 10_000;
    await send("+12025550311");
    expect(asked).toBe(1);
    expect(second.accepted.map((s) => s.destination)).toEqual(["12025550310", "12025550311"]);
    expect(new Map(upstreamStates().map((state) => [state.id, state])).get("first")).toMatchObject({ failedOver: 2 });
  });

  it("sends through the second when the first refuses it with a status about the carrier", async () => {
    const { transport, first, second } = await twoSmscs();
    first.respondWith(SMPP_STATUS.ESME_RSUBMITFAIL);
    const id = await queued("+12025550302");

    expect(await sendQueuedMessage(transport, id, () => ROUTE)).toEqual({ kind: "submitted" });

    expect(first.counters).toMatchObject({ submitsSeen: 1, refused: 1, accepted: 0 });
    expect(second.counters).toMatchObject({ submitsSeen: 1, accepted: 1 });
    await waitForStatus(id, "delivered");
    const states = new Map(upstreamStates().map((state) => [state.id, state]));
    expect(states.get("first")).toMatchObject({ bindsUp: 1, refused: 1, failedOver: 1 });
    expect(states.get("first")?.lastError).toContain("ESME_RSUBMITFAIL");
    expect(states.get("second")).toMatchObject({ bindsUp: 1, accepted: 1, failedOver: 0, errorRate: 0 });
  });

  it("sends through the second when the first answers with a generic_nack", async () => {
    const { transport, first, second } = await twoSmscs();
    first.nackWith(SMPP_STATUS.ESME_RINVCMDID);
    const id = await queued("+12025550309");

    expect(await sendQueuedMessage(transport, id, () => ROUTE)).toEqual({ kind: "submitted" });

    expect(first.counters).toMatchObject({ submitsSeen: 1, refused: 1, accepted: 0 });
    expect(second.counters).toMatchObject({ submitsSeen: 1, accepted: 1 });
  });

  it("fails a message the first refuses as bad, without trying the second", async () => {
    const { transport, first, second } = await twoSmscs();
    first.respondWith(SMPP_STATUS.ESME_RINVDSTADR);
    const id = await queued("+12025550303");

    expect(await sendQueuedMessage(transport, id, () => ROUTE)).toMatchObject({ kind: "failed" });

    expect(first.counters).toMatchObject({ submitsSeen: 1, refused: 1 });
    expect(second.counters.submitsSeen).toBe(0);
    expect((await messageRow(id))?.error).toContain("ESME_RINVDSTADR");
  });

  it("never sends to the second what the first accepted", async () => {
    const { transport, first, second } = await twoSmscs();
    const id = await queued("+12025550304", `${"x".repeat(153)}${"y".repeat(20)}`);

    expect(await sendQueuedMessage(transport, id, () => ROUTE)).toEqual({ kind: "submitted" });

    expect(first.accepted.map((s) => s.concat?.sequence)).toEqual([1, 2]);
    expect(second.counters.submitsSeen).toBe(0);
    await waitForStatus(id, "delivered");
  });

  it("leaves a message unknown, never on the second, when the first was killed before it answered", async () => {
    const { transport, first, second } = await twoSmscs({ responseDelayMs: 5_000 });
    const id = await queued("+12025550305");

    const sending = sendQueuedMessage(transport, id, () => ROUTE);
    await waitFor(() => first.counters.submitsSeen === 1, { what: "the first SMSC to receive the submit" });
    await first.stop();

    expect(await sending).toMatchObject({ kind: "unknown" });
    expect(await messageRow(id)).toMatchObject({ status: "unknown" });
    expect((await messageRow(id))?.error).toContain("not sent elsewhere");
    expect(second.counters.submitsSeen).toBe(0);
    expect(await messageParts(id)).toEqual([]);
  });

  it("matches each receipt to its own upstream's message when both SMSCs give the same id", async () => {
    // Receipts come once both are sent, so a receipt could match either message's part.
    const { transport, first, second } = await twoSmscs({ receiptDelayMs: 300 });
    Object.assign(second.options, { receiptDelayMs: 300, receiptFor: () => "UNDELIV" });
    const [viaFirst, viaSecond] = [await queued("+12025550306"), await queued("+12025550307")];

    await sendQueuedMessage(transport, viaFirst, () => ["first"]);
    await sendQueuedMessage(transport, viaSecond, () => ["second"]);

    expect(first.accepted[0].messageId).toBe(second.accepted[0].messageId);
    await waitForStatus(viaFirst, "delivered");
    await waitForStatus(viaSecond, "undelivered");
  });
});

describe("simulated upstreams", () => {
  it("sends through the second simulator when the first is told to fail, reporting every attempt", async () => {
    const simulated = (id: string, failing: boolean): UpstreamConfig => ({
      id,
      name: id,
      kind: "simulator",
      binds: 1,
      window: 10,
      tps: 0,
      failing,
    });
    const noSinks = { onReceipts: async () => undefined, onInbound: async () => undefined };
    const transport = new RoutedTransport([
      upstreamTransport(simulated("broken", true), noSinks),
      upstreamTransport(simulated("working", false), noSinks),
    ]);
    open = { transport, smscs: [] };
    const id = 1;
    const sms = { id, to: "+12025550308", body: "Demo", parts: [1], upstreams: ["broken", "working"] };

    const outcome = (await transport.submitMany([sms], async (ids) => new Set(ids))).get(id);

    expect(outcome).toMatchObject({
      kind: "accepted",
      takenBy: { upstream: "working", bind: 1 },
      attempts: [
        { upstream: "broken", bind: 1, part: 1, commandStatus: SMPP_STATUS.ESME_RSYSERR, smscMessageId: null },
        { upstream: "working", bind: 1, part: 1, commandStatus: 0, smscMessageId: expect.stringMatching(/^sim-/) },
      ],
    });
  });
});
