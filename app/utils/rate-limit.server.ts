import { getRedis, redisKey } from "../queue/redis.server.ts";

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

/** Counts one event in a fixed window and says whether it is still within the limit. */
export async function hit(limit: Limit, id: string): Promise<LimitState> {
  const [count, ttl] = (await getRedis().eval(HIT, 1, redisKey("rl", limit.name, id), limit.windowMs)) as [
    number,
    number,
  ];
  return state(limit, count, ttl);
}

/** Reads the window without counting (e.g. failed logins are counted only when they fail). */
export async function peek(limit: Limit, id: string): Promise<LimitState> {
  const key = redisKey("rl", limit.name, id);
  const [count, ttl] = await Promise.all([getRedis().get(key), getRedis().pttl(key)]);
  const n = Number(count ?? 0);
  return { ...state(limit, n, ttl), allowed: n < limit.limit };
}

export async function reset(limit: Limit, id: string): Promise<void> {
  await getRedis().del(redisKey("rl", limit.name, id));
}
