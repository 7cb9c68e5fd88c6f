// What each web and worker process runs with, published in Redis, so `npm run doctor` can tell a
// host whose configuration differs from the others' (decision 128). Only digests leave the process.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { hostname } from "node:os";
import { redisForRequest, redisKey } from "#app/queue/redis.server.ts";

/** Settings that may differ per host: where it listens, its disk, its logs, its share of the work. */
const PER_HOST = new Set([
  "PORT",
  "HOST",
  "DATA_DIR",
  "LOG_LEVEL",
  "LOG_FORMAT",
  "ACCESS_LOG",
  "ACCESS_LOG_SLOW_MS",
  "METRICS_PORT",
  "WORKER",
  "WORKER_CONCURRENCY",
  "WORKER_NICE",
  "PASSWORD_HASH_CONCURRENCY",
  "DATABASE_POOL_SIZE",
  "SMPP_BINDS",
  "REDIS_MAXMEMORY",
]);

/** The app's own settings: what env.server.ts reads (upper-case names) and is not per host. */
const isShared = (name: string) => /^[A-Z][A-Z0-9_]*$/.test(name) && !PER_HOST.has(name);

/**
 * A short digest of every shared setting in `settings` named by `names`: equal digests, equal values;
 * a secret cannot be read back from it (the salt keeps a digest from matching a published one).
 */
export function settingDigests(settings: NodeJS.ProcessEnv, names: readonly string[]): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const name of names.filter(isShared).sort()) {
    const value = settings[name]?.trim();
    digests[name] = value ? createHash("sha256").update(`smsgw-fleet:${name}=${value}`).digest("hex").slice(0, 16) : "";
  }
  return digests;
}

/** One process's published configuration. */
export type ConfigBeat = { at: number; role: "web" | "worker"; digests: Record<string, string> };

const CONFIG_INTERVAL_MS = 60_000;
/** A process not heard of for this long has stopped (or lost Redis): its configuration no longer counts. */
export const CONFIG_FRESH_MS = 3 * CONFIG_INTERVAL_MS;

const FLEET_CONFIG = ["fleet", "config"] as const;
const processId = (role: string) => `${hostname()}:${process.pid}:${role}`;

/**
 * Publishes this process's setting digests now and every minute (a failure is skipped: Redis being
 * down is reported elsewhere); stop() removes them.
 */
export function startConfigBeacon(role: ConfigBeat["role"], names: readonly string[], settings = process.env) {
  const field = processId(role);
  const beat = async () => {
    try {
      const value: ConfigBeat = { at: Date.now(), role, digests: settingDigests(settings, names) };
      await redisForRequest().hset(redisKey(...FLEET_CONFIG), field, JSON.stringify(value));
    } catch {
      // Redis is down: the next beat tries again.
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), CONFIG_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await redisForRequest()
        .hdel(redisKey(...FLEET_CONFIG), field)
        .catch(() => undefined);
    },
  };
}

/**
 * The configuration of every process heard of recently, by process (host:pid:role), read with the
 * caller's connection (the doctor runs outside the app).
 */
export async function readFleetConfig(
  redis: Redis,
  queuePrefix: string,
  now = Date.now(),
): Promise<Map<string, ConfigBeat>> {
  const beats = new Map<string, ConfigBeat>();
  for (const [id, json] of Object.entries(await redis.hgetall([queuePrefix, ...FLEET_CONFIG].join(":")))) {
    const beat = JSON.parse(json) as ConfigBeat;
    if (now - beat.at <= CONFIG_FRESH_MS) beats.set(id, beat);
  }
  return beats;
}

/** The names whose digest in `other` differs from `own` (a setting one side lacks counts as differing). */
export function differingSettings(own: Record<string, string>, other: Record<string, string>): string[] {
  const names = new Set([...Object.keys(own), ...Object.keys(other)]);
  return [...names].filter((name) => (own[name] ?? "") !== (other[name] ?? "")).sort();
}
