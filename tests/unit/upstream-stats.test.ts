import smpp from "smpp";
import { describe, expect, it } from "vitest";
import type { SubmitOutcome } from "#app/modules/messaging/transport-types.ts";
import { anotherUpstreamMayTake } from "#app/modules/sms/transports/smpp-status.server.ts";
import { fleetUpstreamStates, UpstreamStats } from "#app/modules/sms/transports/upstream-stats.server.ts";

const attempt = (commandStatus: number | null) => ({
  upstream: "a",
  bind: 1,
  part: 1,
  commandStatus,
  smscMessageId: null,
});
const accepted: SubmitOutcome = { kind: "accepted", acks: [{ part: 1, providerId: "1" }], attempts: [attempt(0)] };
const refused: SubmitOutcome = { kind: "temporary", reason: "SMSC busy", acks: [], attempts: [attempt(0x58)] };
const unbound: SubmitOutcome = { kind: "temporary", reason: "Not connected to the SMSC", acks: [] };

describe("anotherUpstreamMayTake", () => {
  it("moves refusals about the carrier on, and keeps those about the message where they are", () => {
    for (const name of ["ESME_RTHROTTLED", "ESME_RMSGQFUL", "ESME_RSYSERR", "ESME_RSUBMITFAIL", "ESME_RINVSRCADR"])
      expect(anotherUpstreamMayTake(smpp.errors[name]), name).toBe(true);
    expect(anotherUpstreamMayTake(0x400), "a vendor's own code").toBe(true);
    for (const name of ["ESME_RINVDSTADR", "ESME_RINVMSGLEN", "ESME_RINVDSTTON", "ESME_RINVDSTNPI"])
      expect(anotherUpstreamMayTake(smpp.errors[name]), name).toBe(false);
    expect(anotherUpstreamMayTake(0)).toBe(false);
  });
});

describe("UpstreamStats", () => {
  it("counts submits by their answer, with rates over the last 10 seconds and the last error", () => {
    let now = 100_000;
    const stats = new UpstreamStats(() => now);
    stats.record(accepted);
    stats.record(accepted);
    stats.record(refused);
    now += 1_000;
    stats.record(unbound);

    expect(stats.state("a", "A", { binds: 2, bindsUp: 1 })).toMatchObject({
      binds: 2,
      bindsUp: 1,
      submitted: 3,
      accepted: 2,
      refused: 1,
      unbound: 1,
      submitsPerSecond: 0.3,
      errorRate: 2 / 3,
      lastError: "Not connected to the SMSC",
      lastErrorAt: 101_000,
    });
    now += 10_500;
    expect(stats.state("a", "A", { binds: 2, bindsUp: 1 })).toMatchObject({
      submitsPerSecond: 0,
      errorRate: 0,
      submitted: 3,
    });
  });

  it("sums every worker's states of an upstream, keeping the latest error", () => {
    let now = 1_000;
    const [one, two] = [new UpstreamStats(() => now), new UpstreamStats(() => now)];
    one.record(refused);
    now = 2_000;
    two.record(unbound);
    two.record(accepted);
    const binds = { binds: 1, bindsUp: 1 };

    const [state] = fleetUpstreamStates([[one.state("a", "A", binds)], [two.state("a", "A", binds)]]);

    expect(state).toMatchObject({ binds: 2, bindsUp: 2, submitted: 2, accepted: 1, refused: 1, unbound: 1 });
    expect(state.errorRate).toBe(1);
    expect(state.lastError).toBe("Not connected to the SMSC");
  });
});
