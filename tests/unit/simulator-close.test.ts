// A simulated upstream closed with receipts still to come (the send worker replaces its transport
// whenever an admin edits an upstream) reports them at once rather than losing them.
import { expect, it } from "vitest";
import type { Receipt } from "#app/modules/messaging/transport-types.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";

it("reports its pending receipts when it closes", async () => {
  const reported: Receipt[] = [];
  const simulator = new SimulatorTransport({
    dlrMs: 60_000,
    onReceipts: async (receipts) => {
      reported.push(...receipts);
    },
  });
  const outcomes = await simulator.submitMany(
    [{ id: 1, to: "+12025550100", body: "Hi", parts: [1] }],
    async (ids) => new Set(ids),
  );
  const outcome = outcomes.get(1)!;
  if (outcome.kind !== "accepted") throw new Error(`Not accepted: ${outcome.kind}`);
  expect(reported).toEqual([]);
  await simulator.close();
  expect(reported).toEqual([{ providerId: outcome.acks[0].providerId, status: "delivered", error: null }]);
});
