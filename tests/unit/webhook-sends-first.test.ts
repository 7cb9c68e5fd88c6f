// Webhook pushes wait while the process is busy sending (decision 100): driven with a fake loop
// utilization and a sending counter that moves at every sample while `sending` is on.
import { afterEach, describe, expect, it } from "vitest";
import { createSendsFirst } from "#app/modules/webhooks/sends-first.server.ts";

let sending = false;
let activity = 0;
let utilization = 0;
let sendsFirst: ReturnType<typeof createSendsFirst> | undefined;

function gate(maxWaitMs = 60_000) {
  sendsFirst = createSendsFirst({
    sendingActivity: () => (sending ? ++activity : activity),
    loopUtilization: () => utilization,
    sampleMs: 5,
    busyUtilization: 0.8,
    maxWaitMs,
  });
  return sendsFirst;
}

/** Whether the promise settles within a dozen samples. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 60));
  return settled;
}

/** A few samples later: the gate decides on the last one. */
const samplesLater = () => new Promise((resolve) => setTimeout(resolve, 30));

afterEach(() => {
  sendsFirst?.stop();
  sending = false;
  utilization = 0;
});

describe("webhook pushes yield to sending", () => {
  it("go at once when the process is idle, once the first sample is taken", async () => {
    const turns = gate();
    await turns.waitTurn();
    expect(await settlesSoon(turns.waitTurn())).toBe(true);
  });

  it("wait while messages are being sent on a saturated loop, and go when sending stops", async () => {
    const turns = gate();
    await turns.waitTurn();
    sending = true;
    utilization = 0.95;
    await samplesLater();
    const waiting = turns.waitTurn();
    expect(await settlesSoon(waiting)).toBe(false);
    expect(await settlesSoon(turns.waitTurn())).toBe(false);
    sending = false;
    await waiting;
  });

  it("do not wait for a busy loop that is not sending, nor for sending on a loop with time to spare", async () => {
    const turns = gate();
    await turns.waitTurn();
    utilization = 1;
    await samplesLater();
    expect(await settlesSoon(turns.waitTurn())).toBe(true);
    sending = true;
    utilization = 0.3;
    await samplesLater();
    expect(await settlesSoon(turns.waitTurn())).toBe(true);
  });

  it("wait no longer than their limit under sustained full load", async () => {
    const turns = gate(30);
    sending = true;
    utilization = 1;
    await turns.waitTurn();
    await turns.waitTurn();
  });
});
