import type { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { logRedisFailure, redisForRequest, redisKey } from "#app/queue/redis.server.ts";

/** A fixed window: at most `limit` events per `windowMs` (whole seconds) per id. */
export type Limit = { name: string; limit: number; windowMs: number };
export type LimitState = { allowed: boolean; count: number; retryAfterSeconds: number };

// One memory limiter per limit for the life of the process: it holds the counts while Redis is away.
const memoryLimiters = new Map<string, RateLimiterMemory>();
const redisLimiters = new WeakMap<Redis, Map<string, RateLimiterRedis>>();

function memoryLimiter(id: string, limit: Limit): RateLimiterMemory {
  let memory = memoryLimiters.get(id);
  if (!memory) {
    memory = new RateLimiterMemory({ keyPrefix: limit.name, points: limit.limit, duration: limit.windowMs / 1000 });
    memoryLimiters.set(id, memory);
  }
  return memory;
}

/**
 * The Redis limiter, with the memory one as its insurance (used when a Redis call fails), or the
 * memory one alone while the shared connection is down: waiting for ioredis to give up would keep
 * a person waiting (see redisForRequest).
 */
function limiterFor(limit: Limit): RateLimiterAbstract {
  const id = `${limit.name}:${limit.limit}:${limit.windowMs}`;
  const memory = memoryLimiter(id, limit);
  let redis: Redis;
  try {
    redis = redisForRequest();
  } catch (error) {
    logRedisFailure("warn", "rate-limit", `${limit.name} counted in memory: Redis did not answer`, error);
    return memory;
  }
  let byLimit = redisLimiters.get(redis);
  if (!byLimit) redisLimiters.set(redis, (byLimit = new Map()));
  let limiter = byLimit.get(id);
  if (!limiter) {
    limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: redisKey("rl", limit.name),
      points: limit.limit,
      duration: limit.windowMs / 1000,
      insuranceLimiter: memory,
    });
    byLimit.set(id, limiter);
  }
  return limiter;
}

function state(res: RateLimiterRes | null, allowed: (count: number) => boolean): LimitState {
  const count = res?.consumedPoints ?? 0;
  return { allowed: allowed(count), count, retryAfterSeconds: Math.max(1, Math.ceil((res?.msBeforeNext ?? 0) / 1000)) };
}

/** A refusal carries the limiter's state; anything else is a failure of Redis and memory both. */
function refusal(error: unknown): RateLimiterRes {
  if (error instanceof RateLimiterRes) return error;
  throw error;
}

/**
 * Counts one event in a fixed window and says whether it is still within the limit. The count
 * and the check are one step, so parallel requests cannot all slip under the limit.
 */
export async function hit(limit: Limit, id: string): Promise<LimitState> {
  const res = await limiterFor(limit).consume(id).catch(refusal);
  return state(res, (count) => count <= limit.limit);
}

/** Reads the window without counting: allowed while one more event would still be within the limit. */
export async function peek(limit: Limit, id: string): Promise<LimitState> {
  const res = await limiterFor(limit).get(id);
  return state(res, (count) => count < limit.limit);
}

/** Gives back one counted event (e.g. a login attempt that turned out to be the owner's). */
export async function giveBack(limit: Limit, id: string): Promise<void> {
  await limiterFor(limit).reward(id, 1);
}

/** Refuses the id until `seconds` have passed, whatever its count. */
export async function block(limit: Limit, id: string, seconds: number): Promise<void> {
  await limiterFor(limit).block(id, seconds);
}

export async function reset(limit: Limit, id: string): Promise<void> {
  await limiterFor(limit).delete(id);
}
