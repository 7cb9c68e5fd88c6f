// Work that must not run in two processes at once (the reconcilers, at every worker start and on
// their schedule): a Redis lock every host shares, with a TTL so a dead holder frees it.
import { randomUUID } from "node:crypto";
import { getRedis, redisKey } from "#app/queue/redis.server.ts";
import { log } from "#app/utils/log.server.ts";

/**
 * The lock's life: renewed every third of it while the work runs, so only a dead or stuck holder lets
 * it lapse. Short, since every reconciler waits that long after a killed holder (a minute once held
 * back the SMS reconciler past the fault run's patience, a worker killed while re-adding the jobs
 * Redis had lost).
 */
const LOCK_TTL_MS = 15_000;

// Only the holder's token releases or renews the lock: one that lapsed and was taken is not touched.
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`;
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`;

export type SkippedRun = { skipped: string };

/**
 * Runs `work` unless another process (or an earlier call here) is running work of the same `name`:
 * then it is skipped, since that run does the same. Returns the work's result or why it was skipped.
 */
export async function runAlone<T>(name: string, work: () => Promise<T>, ttlMs = LOCK_TTL_MS): Promise<T | SkippedRun> {
  const redis = getRedis();
  const key = redisKey("run-alone", name);
  const token = randomUUID();
  if ((await redis.set(key, token, "PX", ttlMs, "NX")) !== "OK") {
    log("info", "worker", `${name}: skipped, another process is running it`);
    return { skipped: `${name} is running in another process` };
  }
  const renew = setInterval(() => void redis.eval(RENEW, 1, key, token, ttlMs).catch(() => {}), ttlMs / 3);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    // Not released (Redis away): the TTL frees it.
    await redis.eval(RELEASE, 1, key, token).catch(() => {});
  }
}

/**
 * `reconcile` as a singleton across every worker process: each worker runs it at start and one on
 * its schedule, and two runs at once would only repeat each other (the worker's job definitions use it).
 */
export const reconciler =
  <Args extends unknown[], T>(name: string, reconcile: (...args: Args) => Promise<T>) =>
  (...args: Args) =>
    runAlone(name, () => reconcile(...args));
