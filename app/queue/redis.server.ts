import { type Command, Redis, type RedisOptions } from "ioredis";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { workCounters } from "#app/utils/work-counts.server.ts";

/** File where the start command leaves the address of the Redis it runs, for separate workers. */
export const redisUrlFile = () => resolve(getEnv().DATA_DIR, "redis.url");

export function resolveRedisUrl(): string {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (existsSync(redisUrlFile())) return readFileSync(redisUrlFile(), "utf8").trim();
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

/**
 * A connection of its own to `url` for one piece of work outside the app's connections (the doctor,
 * restore, start-up probes): no retries, no queued commands; closed afterwards. Throws when Redis
 * does not answer.
 */
export async function withOwnRedis<T>(
  url: string,
  work: (redis: Redis) => Promise<T>,
  options: RedisOptions = {},
): Promise<T> {
  const redis = new Redis({
    ...redisOptions(url),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...options,
  });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

let shared: SharedRedis | undefined;

// Every command any connection of this process sends (BullMQ's included) is counted (decision 113).
const COUNTED = Symbol.for("smsgw.counted");
const redisPrototype = Redis.prototype as Redis & { [COUNTED]?: true };
if (!redisPrototype[COUNTED]) {
  redisPrototype[COUNTED] = true;
  const counts = workCounters();
  const send = redisPrototype.sendCommand;
  redisPrototype.sendCommand = function (this: Redis, ...args: Parameters<Redis["sendCommand"]>) {
    counts.redisCommands += 1;
    return send.apply(this, args);
  };
}

/** One line when the connection is lost and one when it is back, instead of ioredis's line per retry. */
function reportOutages<Connection extends Redis>(connection: Connection): Connection {
  let down = false;
  connection.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log("warn", "redis", `connection lost (${error.message}); reconnecting, requests go on without it meanwhile`);
  });
  connection.on("ready", () => {
    if (!down) return;
    down = false;
    log("info", "redis", "connected again");
  });
  return connection;
}

const TIMED_OUT = "Command timed out";
/** While a hung Redis is suspected, a PING this often tells when it answers again. */
const PROBE_EVERY_MS = 1_000;

/**
 * The shared connection with REDIS_COMMAND_TIMEOUT_MS on every command. A Redis that stops
 * answering with its socket open (stopped, swapping) leaves the connection `ready`, so ioredis
 * never reconnects: the first command to time out marks it unresponsive, requests then go on
 * without Redis at once (redisForRequest), and a PING clears the mark when Redis answers again.
 */
class SharedRedis extends Redis {
  unresponsive = false;

  constructor(options: RedisOptions) {
    super({ ...options, replyMapping: "legacy" });
    // A new connection's handshake was answered.
    this.on("ready", () => (this.unresponsive = false));
  }

  sendCommand(command: Command, stream?: Parameters<Redis["sendCommand"]>[1]): unknown {
    command.promise.catch((error: Error) => {
      // Not while reconnecting: that outage is the connection's status (see redisForRequest).
      if (error.message === TIMED_OUT && this.status === "ready") this.markUnresponsive();
    });
    return super.sendCommand(command, stream);
  }

  private markUnresponsive(): void {
    if (this.unresponsive) return;
    this.unresponsive = true;
    log(
      "warn",
      "redis",
      `a command got no answer in ${getEnv().REDIS_COMMAND_TIMEOUT_MS} ms; requests go on without Redis until it answers`,
    );
    const probe = setInterval(() => {
      if (this.status === "end") return clearInterval(probe);
      if (!this.unresponsive) return clearInterval(probe);
      this.ping().then(
        () => {
          clearInterval(probe);
          if (!this.unresponsive) return;
          this.unresponsive = false;
          log("info", "redis", "answering again");
        },
        () => {},
      );
    }, PROBE_EVERY_MS);
    probe.unref();
  }
}

/** The process-wide command connection (rate limits, counters, queue producers). */
export function getRedis(): Redis {
  shared ??= reportOutages(
    new SharedRedis({
      ...redisOptions(),
      maxRetriesPerRequest: 3,
      // Off: ioredis's auto-pipelines can throw outside any promise ("results[i] is not iterable",
      // redis/ioredis#1931), which took a test process down under load; an uncaught error would end the web.
      enableAutoPipelining: false,
      commandTimeout: getEnv().REDIS_COMMAND_TIMEOUT_MS || undefined,
    }),
  );
  return shared;
}

export class RedisUnavailableError extends Error {
  constructor(status: string) {
    super(`Redis is unavailable (connection ${status})`);
    this.name = "RedisUnavailableError";
  }
}

/**
 * Logs a Redis call that failed, except for RedisUnavailableError: while the connection is down it
 * has said so once (reportOutages), and a line per request would drown the log.
 */
export function logRedisFailure(level: "warn" | "error", scope: string, message: string, error: unknown): void {
  if (!(error instanceof RedisUnavailableError)) log(level, scope, message, error);
}

/**
 * The shared connection, for a request that can go on without Redis: while the connection is down
 * this throws RedisUnavailableError at once. A command sent meanwhile would wait in ioredis's
 * offline queue until it gives up (maxRetriesPerRequest: seconds, once its reconnect delays have
 * grown) with a person or an API client waiting on the answer. Likewise while Redis holds the
 * socket open without answering (SharedRedis): a request then waits at most one command timeout.
 */
export function redisForRequest(): Redis {
  const redis = getRedis();
  if (redis.status === "reconnecting" || redis.status === "close" || redis.status === "end") {
    throw new RedisUnavailableError(redis.status);
  }
  if (shared?.unresponsive) throw new RedisUnavailableError("not answering");
  return redis;
}

/** A dedicated blocking connection, as BullMQ workers need. */
export function createWorkerConnection(): Redis {
  return new Redis({ ...redisOptions(), maxRetriesPerRequest: null });
}

/** Key under this deployment's prefix, so several apps (or test files) can share one Redis. */
export function redisKey(...parts: (string | number)[]): string {
  return [getEnv().QUEUE_PREFIX, ...parts].join(":");
}

export async function closeRedis(): Promise<void> {
  if (!shared) return;
  const connection = shared;
  shared = undefined;
  await connection.quit().catch(() => connection.disconnect());
}
