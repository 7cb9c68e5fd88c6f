// Webhook pushes wait while the process is busy sending (decision 100): driven sample by sample,
// with a fake loop utilization, sending counter and clock.
import { describe, expect, it } from "vitest";
import { createSendsFirst } from "#app/modules/webhooks/sends-first.server.ts";

function gate(maxLagMs = 10_000) {
  const state = { sending: false, utilization: 0, now: 0, activity: 0 };
  let sample: (() => void) | undefined;
  const turns = createSendsFirst({
    sendingActivity: () => (state.sending ? ++state.activity : state.activity),
    loopUtilization: () => state.utilization,
    everySample: (run) => {
      sample = run;
      return () => (sample = undefined);
    },
    now: () => state.now,
    busyUtilization: 0.5,
    maxLagMs,
  });
  return { turns, state, sample: () => sample!() };
}

/** Whether the promise has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("webhook pushes yield to sending", () => {
  it("go at once when the process is idle, once the first sample is taken", async () => {
    const { turns, state, sample } = gate();
    const first = turns.waitTurn(state.now);
    expect(await settled(first)).toBe(false);
    sample();
    expect(await settled(first)).toBe(true);
    expect(await settled(turns.waitTurn(state.now))).toBe(true);
  });

  it("wait while messages are being sent on a busy loop, and go when sending stops", async () => {
    const { turns, state, sample } = gate();
    void turns.waitTurn(state.now);
    sample();
    state.sending = true;
    state.utilization = 0.95;
    sample();
    const waiting = turns.waitTurn(state.now);
    sample();
    expect(await settled(waiting)).toBe(false);
    state.sending = false;
    sample();
    expect(await settled(waiting)).toBe(true);
  });

  it("do not wait for a busy loop that is not sending, nor past a sample for sending on a loop with time to spare", async () => {
    const { turns, state, sample } = gate();
    void turns.waitTurn(state.now);
    state.utilization = 1;
    sample();
    expect(await settled(turns.waitTurn(state.now))).toBe(true);
    state.sending = true;
    state.utilization = 0.3;
    sample();
    const waiting = turns.waitTurn(state.now);
    expect(await settled(waiting)).toBe(false);
    sample();
    expect(await settled(waiting)).toBe(true);
  });

  it("hold pushes when sending began since an idle sample, until the next sample finds the loop busy or not", async () => {
    const { turns, state, sample } = gate();
    void turns.waitTurn(state.now);
    sample();
    expect(await settled(turns.waitTurn(state.now))).toBe(true);
    state.sending = true;
    const burst = turns.waitTurn(state.now);
    expect(await settled(burst)).toBe(false);
    state.utilization = 0.9;
    sample();
    expect(await settled(burst)).toBe(false);
    state.sending = false;
    sample();
    expect(await settled(burst)).toBe(true);
  });

  it("hold a push no longer than its limit after it became due, under sustained full load", async () => {
    const { turns, state, sample } = gate(10_000);
    void turns.waitTurn(state.now);
    state.sending = true;
    state.utilization = 1;
    sample();
    state.now = 4_000;
    const dueAtStart = turns.waitTurn(0);
    const dueNow = turns.waitTurn(state.now);
    state.now = 9_999;
    sample();
    expect(await settled(dueAtStart)).toBe(false);
    state.now = 10_000;
    sample();
    expect(await settled(dueAtStart)).toBe(true);
    expect(await settled(dueNow)).toBe(false);
    // Already overdue by the limit (a backlog older than it): no wait at all.
    expect(await settled(turns.waitTurn(0))).toBe(true);
  });
});
