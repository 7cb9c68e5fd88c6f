// API key authentication and the rate limits (per key, and per account across its keys), in one
// Redis round trip per request (shared by all requests of the same millisecond).
//
// Keys are found by their SHA-256. A small in-memory cache (hash -> owner) spares the database on
// most requests; it is safe against revocation in any process because every entry remembers the
// "key epoch" it was loaded under. The epoch is a random value in Redis that Regenerate replaces,
// and the same Lua script that counts the request returns it. An entry whose epoch is not the
// current one is looked up again in SQLite, so a replaced key is refused at once, everywhere. The
// epoch is read BEFORE the database, so a regeneration that commits after that read always
// invalidates what the read found. If Redis forgets the epoch (restart without persistence, flush)
// the script creates a new random one, which invalidates every entry too.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getRedis, logRedisFailure, redisForRequest, redisKey } from "#app/queue/redis.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { Coalescer } from "#app/utils/coalescer.server.ts";
import { log } from "#app/utils/log.server.ts";
import { hit } from "#app/utils/rate-limit.server.ts";
import { ApiError } from "#app/api/errors.ts";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { verifyFirstMessage, type VERIFY_BEFORE } from "#app/modules/accounts/verify-first.ts";
import {
  deleteApiKey,
  findKeyOwner,
  hashApiKey,
  isWellFormedApiKey,
  type KeyOwner,
  recordKeyUse,
  storeNewApiKey,
} from "#app/modules/api-keys/keys.server.ts";

const WINDOW_MS = 60_000;
// Only a safety net for the case where Redis could not be told about a regeneration.
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
const LAST_USE_EVERY_MS = 60_000;
const GATE_WINDOW_MS = 1;

const epochKey = () => redisKey("api", "key-epoch");

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

type Counted = { count: number; ttl: number };
/** A request's count in each window it was counted in (in the order of its rate ids), and the key epoch. */
type Gate = { counted: Counted[]; epoch: string };
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

type Entry = KeyOwner & { scopeSet: ReadonlySet<string>; epoch: string; loadedAt: number; usedWrittenAt: number };
const cache = new Map<string, Entry>();

function remember(hash: string, owner: KeyOwner, epoch: string, now: number): Entry {
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  const entry = {
    ...owner,
    scopeSet: new Set(owner.scopes.split(" ")),
    epoch,
    loadedAt: now,
    usedWrittenAt: owner.lastUsedAt ?? 0,
  };
  cache.set(hash, entry);
  return entry;
}

export type RateLimit = { limit: number; remaining: number; resetSeconds: number };
/** Requests a minute: per key, and per account across all its keys. */
export type RateLimits = { perKey: number; perAccount: number };
/** `scopes`: what the key may do (API_SCOPES words); the core compares the route's scope with it. */
export type Authenticated = { userId: number; scopes: ReadonlySet<string>; rate: RateLimit };

function bearerKey(authorization: string | undefined): string {
  const match = authorization?.match(/^Bearer[ ]+(\S+)\s*$/i);
  if (!match) {
    throw new ApiError("unauthorized", "Send your API key as: Authorization: Bearer <key>", {
      headers: { "WWW-Authenticate": 'Bearer realm="api"' },
    });
  }
  return match[1];
}

const accountDisabled = () =>
  new ApiError("account_disabled", "This account has been disabled: its API keys are refused. Write to support.");

const invalidKey = () =>
  new ApiError("unauthorized", "The API key is not valid (it may have been regenerated)", {
    headers: { "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"' },
  });

const accountRateId = (userId: number) => `account:${userId}`;
const seconds = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));

/**
 * The key's owner and the rate limit state, or an ApiError (401, 429): the request counts against
 * its key and against its account (all the account's keys together). When Redis cannot be reached
 * the key is checked in SQLite and counted in memory.
 */
export async function authenticate(
  authorization: string | undefined,
  limits: RateLimits,
  apiGate: ApiGate,
): Promise<Authenticated> {
  const key = bearerKey(authorization);
  if (!isWellFormedApiKey(key)) throw invalidKey();
  const hash = hashApiKey(key);
  const now = clock.now();

  const rateId = hash.slice(0, 22);
  // A key's owner never changes: an entry of any age names the account to count in the same call.
  const knownOwner = cache.get(hash)?.userId;
  let gate: Gate;
  try {
    gate = await apiGate.add(knownOwner === undefined ? [rateId] : [rateId, accountRateId(knownOwner)]);
  } catch (error) {
    logRedisFailure("warn", "api", "key cache skipped, rate limit counted in memory: Redis did not answer", error);
    const owner = findKeyOwner(hash);
    if (!owner) throw invalidKey();
    if (owner.disabled) throw accountDisabled();
    // Off the hot path: only while Redis is away do the limits hold in this process's memory.
    const [byKey, byAccount] = await Promise.all([
      hit({ name: "api", limit: limits.perKey, windowMs: WINDOW_MS }, rateId),
      hit({ name: "api", limit: limits.perAccount, windowMs: WINDOW_MS }, accountRateId(owner.userId)),
    ]);
    return {
      userId: owner.userId,
      scopes: new Set(owner.scopes.split(" ")),
      rate: withinRates(
        limits,
        { count: byKey.count, ttl: byKey.retryAfterSeconds * 1000 },
        { count: byAccount.count, ttl: byAccount.retryAfterSeconds * 1000 },
      ),
    };
  }
  const { epoch } = gate;

  let entry = cache.get(hash);
  if (!entry || entry.epoch !== epoch || now - entry.loadedAt > CACHE_TTL_MS) {
    cache.delete(hash);
    const owner = findKeyOwner(hash);
    if (!owner) throw invalidKey();
    entry = remember(hash, owner, epoch, now);
  }
  if (entry.disabled) throw accountDisabled();
  if (now - entry.usedWrittenAt >= LAST_USE_EVERY_MS) {
    entry.usedWrittenAt = now;
    recordKeyUse(entry.keyId, now);
  }
  // A key this process had not seen: its account is counted now that it is known (once per key and process).
  const [byKey, countedAccount] = gate.counted;
  const byAccount = countedAccount ?? (await apiGate.add([accountRateId(entry.userId)])).counted[0];

  return { userId: entry.userId, scopes: entry.scopeSet, rate: withinRates(limits, byKey, byAccount) };
}

/**
 * The rate limit state of a request counted in its key's and its account's windows (the tighter of
 * the two is what the headers show), or a 429 past either limit.
 */
function withinRates(limits: RateLimits, byKey: Counted, byAccount: Counted): RateLimit {
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

/** Refuses (403 email_unverified) what acts for an account whose address is not verified yet. */
export function refuseUnverified(userId: number, before: (typeof VERIFY_BEFORE)[keyof typeof VERIFY_BEFORE]): void {
  if (mustVerifyEmail(userId)) throw new ApiError("email_unverified", verifyFirstMessage(before));
}

export function rateLimitHeaders(rate: RateLimit | null): Record<string, string> {
  if (!rate) return {};
  return {
    "RateLimit-Limit": String(rate.limit),
    "RateLimit-Remaining": String(rate.remaining),
    "RateLimit-Reset": String(rate.resetSeconds),
  };
}

export class KeyRevocationError extends Error {
  constructor(cause: unknown) {
    super("Could not tell the other servers to drop the old key", { cause });
    this.name = "KeyRevocationError";
  }
}

/**
 * Changes the keys (`change` returns the hash that stops working, if any) so that the old key is
 * refused at once in every process. The epoch is replaced before the database (so nothing changes
 * when Redis is down: KeyRevocationError) and again after, which invalidates entries loaded in between.
 */
async function revokeEverywhere<T extends { oldHash: string | null }>(userId: number, change: () => T): Promise<T> {
  try {
    await getRedis().set(epochKey(), randomUUID());
  } catch (error) {
    throw new KeyRevocationError(error);
  }
  const result = change();
  await forgetApiKeys(userId, result.oldHash ? [result.oldHash] : []);
  return result;
}

/**
 * After keys were changed or deleted in SQLite (`hashes`): drops them from this process's cache and
 * replaces the epoch, so every process looks its cached keys up again.
 */
export async function forgetApiKeys(userId: number, hashes: string[]): Promise<void> {
  for (const hash of hashes) cache.delete(hash);
  try {
    await getRedis().set(epochKey(), randomUUID());
  } catch (error) {
    log(
      "error",
      "api",
      `API keys of user ${userId} changed, but other processes may accept the old ones for ${CACHE_TTL_MS / 1000} s`,
      error,
    );
  }
}

/**
 * After an account is disabled or enabled: every process loads keys again at their next request,
 * which sees it. When Redis is down, other processes keep their entries until these expire.
 */
export async function reloadApiKeys(): Promise<void> {
  cache.clear();
  try {
    await getRedis().set(epochKey(), randomUUID());
  } catch (error) {
    log("error", "api", `other processes may keep an account's old key status for ${CACHE_TTL_MS / 1000} s`, error);
  }
}

/**
 * Makes a new secret for the user's key `keyId` (by default their first key, or a first key with
 * every scope); the old secret stops working at once in every process.
 */
export async function regenerateApiKey(userId: number, keyId?: number): Promise<{ key: string; replaced: boolean }> {
  const { key, oldHash } = await revokeEverywhere(userId, () => storeNewApiKey(userId, keyId));
  return { key, replaced: oldHash !== null };
}

/** Deletes the user's key `keyId`; it stops working at once in every process. */
export async function revokeApiKey(userId: number, keyId: number): Promise<void> {
  await revokeEverywhere(userId, () => ({ oldHash: deleteApiKey(userId, keyId) }));
}
