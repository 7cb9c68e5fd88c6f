import { logRedisFailure, redisForRequest, redisKey } from "../queue/redis.server.ts";

export type Limit = { name: string; limit: number; windowMs: number };
export type LimitState = { allowed: boolean; count: number; retryAfterSeconds: number };

// INCR and the window's expiry in one step, so a crash between them cannot leave a counter forever.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

function state(limit: Limit, count: number, ttlMs: number): LimitState {
  return { allowed: count <= limit.limit, count, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
}

/**
 * Without Redis a limit is skipped: a person is not turned away (or kept waiting) because the
 * counters cannot be reached.
 */
async function withoutRedis<T>(limit: Limit, skipped: T, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    logRedisFailure("warn", "rate-limit", `${limit.name} skipped: Redis did not answer`, error);
    return skipped;
  }
}

const ALLOWED: LimitState = { allowed: true, count: 0, retryAfterSeconds: 0 };

/** Counts one event in a fixed window and says whether it is still within the limit. */
export function hit(limit: Limit, id: string): Promise<LimitState> {
  return withoutRedis(limit, ALLOWED, async () => {
    const key = redisKey("rl", limit.name, id);
    const [count, ttl] = (await redisForRequest().eval(HIT, 1, key, limit.windowMs)) as [number, number];
    return state(limit, count, ttl);
  });
}

/** Reads the window without counting (e.g. failed logins are counted only when they fail). */
export function peek(limit: Limit, id: string): Promise<LimitState> {
  return withoutRedis(limit, ALLOWED, async () => {
    const key = redisKey("rl", limit.name, id);
    const redis = redisForRequest();
    const [count, ttl] = await Promise.all([redis.get(key), redis.pttl(key)]);
    const n = Number(count ?? 0);
    return { ...state(limit, n, ttl), allowed: n < limit.limit };
  });
}

export function reset(limit: Limit, id: string): Promise<void> {
  return withoutRedis(limit, undefined, async () => {
    await redisForRequest().del(redisKey("rl", limit.name, id));
  });
}
