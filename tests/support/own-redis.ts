// Kept apart from redis.ts, which the global setup imports: this one loads the app's modules (and
// with them its configuration) and registers hooks, which only a test file may do.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeQueues } from "#app/queue/queues.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";
import { startTestRedis } from "#tests/support/redis.ts";

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
    server.resume();
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
    pause: () => server.pause(),
    resume: () => server.resume(),
    /** Starts it again on the same port, empty, like a Redis that lost its data. */
    restart: async () => {
      server = await startTestRedis(dir, server.port);
    },
  };
}
