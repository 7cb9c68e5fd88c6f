import { HEARTBEAT_FRESH_MS, readHeartbeats, type UpstreamState } from "#app/modules/health/heartbeat.server.ts";
import type { SubmitOutcome } from "#app/modules/messaging/transport-types.ts";

/** The rates look at the last this many seconds. */
const WINDOW_SECONDS = 10;

/** Counts per second, for the last WINDOW_SECONDS. */
class RecentCount {
  private readonly buckets = new Array<number>(WINDOW_SECONDS).fill(0);
  private second = 0;

  add(n: number, now: number) {
    this.roll(now);
    this.buckets[this.second % WINDOW_SECONDS] += n;
  }

  total(now: number): number {
    this.roll(now);
    return this.buckets.reduce((sum, n) => sum + n, 0);
  }

  private roll(now: number) {
    const second = Math.floor(now / 1000);
    for (let s = Math.max(this.second + 1, second - WINDOW_SECONDS + 1); s <= second; s++)
      this.buckets[s % WINDOW_SECONDS] = 0;
    this.second = Math.max(this.second, second);
  }
}

/** What one upstream's submits met, counted from the outcomes its transport reports. */
export class UpstreamStats {
  submitted = 0;
  accepted = 0;
  refused = 0;
  unanswered = 0;
  unbound = 0;
  failedOver = 0;
  lastError: string | null = null;
  lastErrorAt: number | null = null;
  private readonly recentSubmits = new RecentCount();
  private readonly recentErrors = new RecentCount();

  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  record(outcome: SubmitOutcome) {
    if (outcome.kind === "not-claimed") return;
    const now = this.now();
    const attempts = outcome.attempts ?? [];
    let errors = 0;
    for (const { commandStatus } of attempts) {
      if (commandStatus === 0) this.accepted += 1;
      else if (commandStatus === null) this.unanswered += 1;
      else this.refused += 1;
      if (commandStatus !== 0) errors += 1;
    }
    this.submitted += attempts.length;
    this.recentSubmits.add(attempts.length, now);
    // A temporary outcome with nothing written: no bind was up for it.
    if (attempts.length === 0 && outcome.kind === "temporary") {
      this.unbound += 1;
      errors += 1;
    }
    if (errors === 0) return;
    this.recentErrors.add(errors, now);
    if (outcome.kind !== "accepted") {
      this.lastError = outcome.reason;
      this.lastErrorAt = now;
    }
  }

  state(id: string, name: string, binds: { binds: number; bindsUp: number }): UpstreamState {
    const now = this.now();
    const recentSubmits = this.recentSubmits.total(now);
    const recentErrors = this.recentErrors.total(now);
    return {
      id,
      name,
      ...binds,
      submitsPerSecond: recentSubmits / WINDOW_SECONDS,
      errorRate: errorRate(recentSubmits, recentErrors),
      recentSubmits,
      recentErrors,
      submitted: this.submitted,
      accepted: this.accepted,
      refused: this.refused,
      unanswered: this.unanswered,
      unbound: this.unbound,
      failedOver: this.failedOver,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt,
    };
  }
}

function errorRate(submits: number, errors: number): number {
  return errors === 0 ? 0 : Math.min(1, errors / Math.max(1, submits));
}

/** Every worker's states of each upstream as one (the admin page's view): sums, the latest error. */
export function fleetUpstreamStates(perWorker: UpstreamState[][]): UpstreamState[] {
  const byId = new Map<string, UpstreamState>();
  for (const state of perWorker.flat()) {
    const seen = byId.get(state.id);
    if (!seen) {
      byId.set(state.id, { ...state });
      continue;
    }
    for (const key of SUMMED) seen[key] += state[key];
    seen.errorRate = errorRate(seen.recentSubmits, seen.recentErrors);
    if ((state.lastErrorAt ?? 0) > (seen.lastErrorAt ?? 0)) {
      seen.lastError = state.lastError;
      seen.lastErrorAt = state.lastErrorAt;
    }
  }
  return [...byId.values()];
}

const SUMMED = [
  "binds",
  "bindsUp",
  "submitsPerSecond",
  "recentSubmits",
  "recentErrors",
  "submitted",
  "accepted",
  "refused",
  "unanswered",
  "unbound",
  "failedOver",
] as const;

/** The upstreams as the live workers see them together (their heartbeats), for the upstreams page. */
export async function liveUpstreamStates(now = Date.now()): Promise<UpstreamState[]> {
  const beats = [...(await readHeartbeats(now)).values()].filter((beat) => now - beat.at <= HEARTBEAT_FRESH_MS);
  return fleetUpstreamStates(beats.map((beat) => beat.upstreams ?? []));
}
