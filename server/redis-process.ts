import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { Redis } from "ioredis";
import { redisOptions } from "#app/queue/redis.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { freePort } from "#server/free-port.ts";

export { freePort };

/** `pid` is the child's, when this call started one (an already running Redis has none here). */
export type PrivateRedis = { url: string; pid?: number; stop: () => Promise<void> };

export class RedisNotInstalledError extends Error {
  constructor() {
    super(
      "redis-server was not found on PATH. Install it with: sudo apt-get install -y redis-server (or set REDIS_URL).",
    );
    this.name = "RedisNotInstalledError";
  }
}

async function answers(url: string, attempts = 1): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    const client = new Redis({
      ...redisOptions(url),
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      client.disconnect();
    }
  }
  return false;
}

async function setMaxMemory(url: string, maxMemory: string): Promise<void> {
  const client = new Redis({ ...redisOptions(url), maxRetriesPerRequest: 0 });
  try {
    await client.config("SET", "maxmemory", maxMemory);
  } finally {
    client.disconnect();
  }
}

/**
 * Runs a redis-server that belongs to this DATA_DIR: append-only persistence, at most `maxMemory`
 * (REDIS_MAXMEMORY) with no eviction (queued sends must never be dropped: a full Redis refuses new
 * writes instead), a unix socket when the path allows it. Reuses one still running from an earlier start.
 */
export async function startPrivateRedis(
  dataDir: string,
  { maxMemory = getEnv().REDIS_MAXMEMORY } = {},
): Promise<PrivateRedis> {
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).error) throw new RedisNotInstalledError();
  const dir = resolve(dataDir, "redis");
  mkdirSync(dir, { recursive: true });
  const socket = resolve(dir, "redis.sock");
  const useSocket = socket.length < 100;
  const port = useSocket ? 0 : await freePort();
  const url = useSocket ? `unix://${socket}` : `redis://127.0.0.1:${port}`;
  const urlFile = resolve(dataDir, "redis.url");

  if (useSocket && (await answers(url))) {
    // Started by an earlier run, perhaps with another REDIS_MAXMEMORY: this start's value holds.
    await setMaxMemory(url, maxMemory);
    writeFileSync(urlFile, url);
    return { url, stop: async () => {} };
  }
  if (useSocket) rmSync(socket, { force: true });

  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--appendonly",
    "yes",
    "--maxmemory",
    maxMemory,
    "--maxmemory-policy",
    "noeviction",
    "--save",
    "",
    "--daemonize",
    "no",
    "--logfile",
    resolve(dir, "redis.log"),
    ...(useSocket ? ["--unixsocket", socket, "--unixsocketperm", "700"] : []),
  ];
  const child: ChildProcess = spawn("redis-server", args, { stdio: "ignore" });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  if (!(await answers(url, 100))) {
    child.kill("SIGKILL");
    throw new Error(`redis-server did not start; see ${resolve(dir, "redis.log")}`);
  }
  writeFileSync(urlFile, url);
  return {
    url,
    pid: child.pid,
    stop: async () => {
      rmSync(urlFile, { force: true });
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
