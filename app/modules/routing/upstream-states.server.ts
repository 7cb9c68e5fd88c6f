// Each upstream's live state, as the workers see it: every worker process publishes what its
// transports report (a hash field per process, JSON), and the admin screen adds them up.
import { hostname } from "node:os";
import { redisForRequest, redisKey } from "#app/queue/redis.server.ts";
import { STATE_FRESH_MS, type UpstreamState } from "#app/modules/routing/routing.ts";

type Published = { at: number; states: UpstreamState[] };

const STATES_KEY = () => redisKey("upstreams", "states");
const processField = () => `${hostname()}:${process.pid}`;

/** Called by a worker with its transports' states (a few times a minute); the hash expires with the workers. */
export async function publishUpstreamStates(states: UpstreamState[], now = Date.now()): Promise<void> {
  const value: Published = { at: now, states };
  await redisForRequest()
    .multi()
    .hset(STATES_KEY(), processField(), JSON.stringify(value))
    .pexpire(STATES_KEY(), STATE_FRESH_MS * 2)
    .exec();
}

/**
 * Every upstream's state summed over the workers heard of in the last STATE_FRESH_MS, by id; empty
 * when no worker has reported (or Redis is unavailable: the screen says so rather than guessing).
 */
export async function readUpstreamStates(now = Date.now()): Promise<Map<string, UpstreamState>> {
  let published: Record<string, string>;
  try {
    published = await redisForRequest().hgetall(STATES_KEY());
  } catch {
    return new Map();
  }
  const totals = new Map<string, UpstreamState & { errors: number }>();
  for (const text of Object.values(published)) {
    const beat = JSON.parse(text) as Published;
    if (now - beat.at > STATE_FRESH_MS) continue;
    for (const state of beat.states) {
      const total = totals.get(state.id) ?? {
        ...state,
        bindsUp: 0,
        submitsPerSecond: 0,
        errorRate: 0,
        errors: 0,
        lastError: null,
      };
      total.bindsUp += state.bindsUp;
      total.submitsPerSecond += state.submitsPerSecond;
      total.errors += state.errorRate * state.submitsPerSecond;
      if (state.lastError && (!total.lastError || state.lastError.at > total.lastError.at))
        total.lastError = state.lastError;
      totals.set(state.id, total);
    }
  }
  return new Map(
    [...totals].map(([id, { errors, ...state }]) => [
      id,
      { ...state, errorRate: state.submitsPerSecond > 0 ? errors / state.submitsPerSecond : 0 },
    ]),
  );
}
