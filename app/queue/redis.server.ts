import { Redis, type RedisOptions } from "ioredis";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { env } from "../utils/env.server.ts";

/** File where the start command leaves the address of the Redis it runs, for separate workers. */
export const redisUrlFile = resolve(env.DATA_DIR, "redis.url");

export function resolveRedisUrl(): string {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (existsSync(redisUrlFile)) return readFileSync(redisUrlFile, "utf8").trim();
  throw new Error(
    "REDIS_URL is not set and no Redis was started for DATA_DIR. Start the app with `npm start`, or set REDIS_URL.",
  );
}

/** ioredis options from redis://, rediss:// or unix:///path/to/socket. */
export function redisOptions(url = resolveRedisUrl()): RedisOptions {
  if (url.startsWith("unix://")) return { path: url.slice("unix://".length) };
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === "rediss:" ? {} : undefined,
  };
}

let shared: Redis | undefined;

/** The process-wide command connection (rate limits, counters, queue producers). */
export function getRedis(): Redis {
  shared ??= new Redis({ ...redisOptions(), maxRetriesPerRequest: 3, enableAutoPipelining: true });
  return shared;
}

/** A dedicated blocking connection, as BullMQ workers need. */
export function createWorkerConnection(): Redis {
  return new Redis({ ...redisOptions(), maxRetriesPerRequest: null });
}

/** Key under this deployment's prefix, so several apps (or test files) can share one Redis. */
export function redisKey(...parts: (string | number)[]): string {
  return [env.QUEUE_PREFIX, ...parts].join(":");
}

export async function closeRedis(): Promise<void> {
  if (!shared) return;
  const connection = shared;
  shared = undefined;
  await connection.quit().catch(() => connection.disconnect());
}
