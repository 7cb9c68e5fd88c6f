// A warning before Redis is full: with maxmemory and noeviction, a full Redis refuses new jobs (sends
// then wait in SQLite for the reconciler), so the operator should hear about it while there is room.
import type { Redis } from "ioredis";
import { log } from "#app/utils/log.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { logRedisFailure, redisForRequest } from "#app/queue/redis.server.ts";

/** Used memory past this share of maxmemory is logged as a warning. */
export const REDIS_MEMORY_WARN_RATIO = 0.8;
const CHECK_EVERY_MS = 60_000;

function infoField(info: string, name: string): number {
  return Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1] ?? 0);
}

const megabytes = (bytes: number) => `${formatNumber(Math.round(bytes / 1_048_576))} MB`;

/**
 * A check to call now and then: reads INFO memory and logs one line each time use crosses
 * REDIS_MEMORY_WARN_RATIO of maxmemory (a warning going up, a note coming back down), not one per
 * check. A Redis without maxmemory is never warned about.
 */
export function redisMemoryCheck(redis: () => Redis = redisForRequest): () => Promise<void> {
  let above = false;
  return async () => {
    let info: string;
    try {
      info = await redis().info("memory");
    } catch (error) {
      logRedisFailure("warn", "redis", "memory check: Redis did not answer", error);
      return;
    }
    const used = infoField(info, "used_memory");
    const max = infoField(info, "maxmemory");
    const nowAbove = max > 0 && used >= max * REDIS_MEMORY_WARN_RATIO;
    if (nowAbove === above) return;
    above = nowAbove;
    const share = `${megabytes(used)} of its ${megabytes(max)} maxmemory (${Math.round((used / max) * 100)} %)`;
    if (above) {
      log(
        "warn",
        "redis",
        `memory: Redis uses ${share}; when it is full new sends wait in SQLite. Raise REDIS_MAXMEMORY or look for a backlog.`,
      );
    } else {
      log("info", "redis", `memory: back under ${Math.round(REDIS_MEMORY_WARN_RATIO * 100)} %: Redis uses ${share}`);
    }
  };
}

/** Runs the check now and every minute until stopped. */
export function startRedisMemoryWatch(): { stop: () => void } {
  const check = redisMemoryCheck();
  void check();
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
