// API key authentication and the rate limits (per key, and per account across its keys), in one
// Redis round trip per request: the rate gate (rate-gate.server.ts), shared by all requests of the
// same millisecond.
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
import { getRedis, logRedisFailure } from "#app/queue/redis.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { log } from "#app/utils/log.server.ts";
import { hit } from "#app/utils/rate-limit.server.ts";
import { ApiError } from "#app/api/errors.ts";
import {
  type ApiGate,
  epochKey,
  type Gate,
  type RateLimit,
  type RateLimits,
  WINDOW_MS,
  withinRates,
} from "#app/api/rate-gate.server.ts";
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

// Only a safety net for the case where Redis could not be told about a regeneration.
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
const LAST_USE_EVERY_MS = 60_000;

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

/** `scopes`: what the key may do (API_SCOPES words); the core compares the route's scope with it. */
export type Authenticated = { userId: number; keyId: number; scopes: ReadonlySet<string>; rate: RateLimit };

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
    const owner = await findKeyOwner(hash);
    if (!owner) throw invalidKey();
    if (owner.disabled) throw accountDisabled();
    // Off the hot path: only while Redis is away do the limits hold in this process's memory.
    const [byKey, byAccount] = await Promise.all([
      hit({ name: "api", limit: limits.perKey, windowMs: WINDOW_MS }, rateId),
      hit({ name: "api", limit: limits.perAccount, windowMs: WINDOW_MS }, accountRateId(owner.userId)),
    ]);
    return {
      userId: owner.userId,
      keyId: owner.keyId,
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
    const owner = await findKeyOwner(hash);
    if (!owner) throw invalidKey();
    entry = remember(hash, owner, epoch, now);
  }
  if (entry.disabled) throw accountDisabled();
  if (now - entry.usedWrittenAt >= LAST_USE_EVERY_MS) {
    entry.usedWrittenAt = now;
    await recordKeyUse(entry.keyId, now);
  }
  // A key this process had not seen: its account is counted now that it is known (once per key and process).
  const [byKey, countedAccount] = gate.counted;
  const byAccount = countedAccount ?? (await apiGate.add([accountRateId(entry.userId)])).counted[0];

  return {
    userId: entry.userId,
    keyId: entry.keyId,
    scopes: entry.scopeSet,
    rate: withinRates(limits, byKey, byAccount),
  };
}

/** Refuses (403 email_unverified) what acts for an account whose address is not verified yet. */
export async function refuseUnverified(
  userId: number,
  before: (typeof VERIFY_BEFORE)[keyof typeof VERIFY_BEFORE],
): Promise<void> {
  if (await mustVerifyEmail(userId)) throw new ApiError("email_unverified", verifyFirstMessage(before));
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
async function revokeEverywhere<T extends { oldHash: string | null }>(
  userId: number,
  change: () => Promise<T>,
): Promise<T> {
  try {
    await getRedis().set(epochKey(), randomUUID());
  } catch (error) {
    throw new KeyRevocationError(error);
  }
  const result = await change();
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
  await revokeEverywhere(userId, async () => ({ oldHash: await deleteApiKey(userId, keyId) }));
}
