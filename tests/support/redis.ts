import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { closeQueues } from "../../app/queue/queues.server.ts";
import { closeRedis } from "../../app/queue/redis.server.ts";
import { freePort } from "../../server/free-port.ts";

/** A throwaway redis-server on a free loopback port, without persistence. */
export async function startTestRedis(dir: string, port?: number) {
  const listenPort = port ?? (await freePort());
  const child = spawn(
    "redis-server",
    ["--port", String(listenPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--maxmemory-policy", "noeviction"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${listenPort}`;
  for (let attempt = 0; ; attempt++) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      break;
    } catch {
      client.disconnect();
      if (attempt > 100) throw new Error("test redis-server did not start (is redis-server installed?)");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port: listenPort,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * A redis-server of the calling test file's own, for tests that stop, restart or flush it without
 * touching any other file. The app's connection reads REDIS_URL when it first opens, after beforeAll.
 */
export function ownTestRedis(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `smsgw-${name}-`));
  let server: Awaited<ReturnType<typeof startTestRedis>>;
  beforeAll(async () => {
    server = await startTestRedis(dir);
    process.env.REDIS_URL = server.url;
  });
  afterAll(async () => {
    // The app's connections first, so nothing waits on a server that is gone.
    await closeQueues();
    await closeRedis();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      return server.url;
    },
    stop: () => server.stop(),
    /** Starts it again on the same port, empty, like a Redis that lost its data. */
    restart: async () => {
      server = await startTestRedis(dir, server.port);
    },
  };
}
