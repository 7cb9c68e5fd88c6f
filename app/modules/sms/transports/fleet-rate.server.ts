import { getRedis, redisKey } from "#app/queue/redis.server.ts";

/** Tokens granted now, and how long until the rest could be (0 when all were). */
export type Grant = { granted: number; waitMs: number };

/** Takes up to `want` submit tokens from a limit shared by every worker process of the deployment. */
export type SharedRate = (want: number) => Promise<Grant>;

// A token bucket in one Redis hash, refilled from Redis's own clock (one clock for every worker).
// Its capacity is a tenth of a second of the rate: a burst never adds more than 1 % to a 10 s window.
const TAKE = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or capacity
local at = tonumber(bucket[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], 60000)
local wait = 0
if granted < want then wait = math.ceil((math.min(want - granted, capacity) - tokens) * 1000 / rate) end
return {granted, wait}
`;

/**
 * SMPP_TPS as the deployment's total: each SMPP transport of each worker takes its tokens here,
 * a group at a time (about a tenth of a second of the rate: ten Redis calls a second in all).
 */
export function fleetRate(tps: number, name = "smpp"): SharedRate {
  const capacity = Math.max(1, Math.ceil(tps / 10));
  const key = redisKey("rate", name);
  return async (want) => {
    const [granted, waitMs] = (await getRedis().eval(TAKE, 1, key, tps, capacity, Math.min(want, capacity))) as [
      number,
      number,
    ];
    return { granted, waitMs };
  };
}
