// The API's rate gate: one Redis call per millisecond counts every request of that millisecond in
// its fixed windows (per key, and per account across its keys) and reads the key epoch, which the
// key cache in auth.server.ts checks its entries against.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { redisForRequest, redisKey } from "#app/queue/redis.server.ts";
import { Coalescer } from "#app/utils/coalescer.server.ts";
import { ApiError } from "#app/api/errors.ts";

export const WINDOW_MS = 60_000;
const GATE_WINDOW_MS = 1;

/** The Redis key of the key epoch, which a regeneration replaces. */
export const epochKey = () => redisKey("api", "key-epoch");

// One call per millisecond for every request that came in it: the current key epoch (made if
// missing), then for each rate id (a key's, an account's) its requests counted in its fixed window.
const GATE = `
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[2]
  redis.call('SET', KEYS[1], epoch)
end
local out = {epoch}
for i = 2, #KEYS do
  local n = tonumber(ARGV[i + 1])
  local count = redis.call('INCRBY', KEYS[i], n)
  if count == n then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
  out[#out + 1] = count
  out[#out + 1] = redis.call('PTTL', KEYS[i])
end
return out`;

type GateRedis = Redis & {
  apiGate(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<(string | number)[]>;
};
const defined = new WeakSet<Redis>();

function gateRedis(): GateRedis {
  const redis = redisForRequest();
  // EVALSHA with a fallback to EVAL: the script is not sent with every call.
  if (!defined.has(redis)) {
    redis.defineCommand("apiGate", { lua: GATE });
    defined.add(redis);
  }
  return redis as GateRedis;
}

export type Counted = { count: number; ttl: number };
/** A request's count in each window it was counted in (in the order of its rate ids), and the key epoch. */
export type Gate = { counted: Counted[]; epoch: string };
export type ApiGate = Coalescer<readonly string[], Gate>;

/** Counts a request in its windows and reads the key epoch, together with the other requests of this millisecond. */
export function createApiGate(): ApiGate {
  // A millisecond gathers several times more requests per Redis call than one turn does.
  return new Coalescer({ windowMs: GATE_WINDOW_MS, run: passGates });
}

/** One Redis call for the requests (each one's rate ids, in arrival order); a gate for each. */
async function passGates(requestRateIds: (readonly string[])[]): Promise<Gate[]> {
  const requests = new Map<string, number>();
  for (const rateIds of requestRateIds)
    for (const rateId of rateIds) requests.set(rateId, (requests.get(rateId) ?? 0) + 1);
  const due = [...requests];
  const keys = [epochKey(), ...due.map(([rateId]) => redisKey("rl", "api", rateId))];
  const out = await gateRedis().apiGate(
    keys.length,
    ...keys,
    WINDOW_MS,
    randomUUID(),
    ...due.map(([, count]) => count),
  );
  const epoch = String(out[0]);
  const counted = new Map(
    due.map(([rateId, count], i) => [rateId, { count: Number(out[1 + 2 * i]) - count, ttl: Number(out[2 + 2 * i]) }]),
  );
  // The requests of one rate id take the counts up to the total, in arrival order.
  return requestRateIds.map((rateIds) => ({
    epoch,
    counted: rateIds.map((rateId) => {
      const window = counted.get(rateId)!;
      window.count += 1;
      return { count: window.count, ttl: window.ttl };
    }),
  }));
}

export type RateLimit = { limit: number; remaining: number; resetSeconds: number };
/** Requests a minute: per key, and per account across all its keys. */
export type RateLimits = { perKey: number; perAccount: number };
const seconds = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));

/**
 * The rate limit state of a request counted in its key's and its account's windows (the tighter of
 * the two is what the headers show), or a 429 past either limit.
 */
export function withinRates(limits: RateLimits, byKey: Counted, byAccount: Counted): RateLimit {
  const key = {
    limit: limits.perKey,
    remaining: Math.max(0, limits.perKey - byKey.count),
    resetSeconds: seconds(byKey.ttl),
  };
  const account = {
    limit: limits.perAccount,
    remaining: Math.max(0, limits.perAccount - byAccount.count),
    resetSeconds: seconds(byAccount.ttl),
  };
  const overKey = byKey.count > limits.perKey;
  const overAccount = byAccount.count > limits.perAccount;
  const rate = overAccount || (!overKey && account.remaining < key.remaining) ? account : key;
  if (overKey || overAccount) {
    const message = overAccount
      ? `Too many requests: at most ${limits.perAccount} a minute per account, all its API keys together`
      : `Too many requests: at most ${limits.perKey} a minute per API key`;
    throw new ApiError("rate_limited", message, {
      headers: { "Retry-After": String(rate.resetSeconds), ...rateLimitHeaders(rate) },
    });
  }
  return rate;
}

export function rateLimitHeaders(rate: RateLimit | null): Record<string, string> {
  if (!rate) return {};
  return {
    "RateLimit-Limit": String(rate.limit),
    "RateLimit-Remaining": String(rate.remaining),
    "RateLimit-Reset": String(rate.resetSeconds),
  };
}
