// The private Redis runs with REDIS_MAXMEMORY (no eviction), and the memory check logs one warning
// each time use passes 80 % of it, not one per check. This file starts its own redis-server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { redisOptions } from "#app/queue/redis.server.ts";
import { REDIS_MEMORY_WARN_RATIO, redisMemoryCheck } from "#app/queue/redis-memory.server.ts";
import { type PrivateRedis, startPrivateRedis } from "#server/redis-process.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.REDIS_MAXMEMORY = "16mb";
// The warning is the subject here: let it through the test's quiet log level.
process.env.LOG_LEVEL = "info";

const dir = mkdtempSync(join(tmpdir(), "smsgw-redis-memory-"));
let server: PrivateRedis;
let client: Redis;

beforeAll(async () => {
  server = await startPrivateRedis(dir);
  client = new Redis(redisOptions(server.url));
});

afterAll(async () => {
  client.disconnect();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const usedMemory = async () => Number(/^used_memory:(\d+)/m.exec(await client.info("memory"))![1]);

it("starts the private Redis with REDIS_MAXMEMORY and noeviction", async () => {
  expect(await client.config("GET", "maxmemory")).toEqual(["maxmemory", String(16 * 1024 * 1024)]);
  expect(await client.config("GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "noeviction"]);
});

it("logs one warning when used memory passes 80 % of maxmemory, one line when it is back under, and again on the next crossing", async () => {
  const warnings = vi.spyOn(console, "error").mockImplementation(() => {});
  const notes = vi.spyOn(console, "log").mockImplementation(() => {});
  const memoryLines = (spy: typeof warnings) =>
    spy.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith("[redis] memory"));
  const check = redisMemoryCheck(() => client);
  const max = 16 * 1024 * 1024;
  // Small values, so no single command needs more room than what is left.
  const fill = async () => {
    for (let i = 0; (await usedMemory()) < max * 0.85; i++) await client.set(`filler:${i}`, "x".repeat(256 * 1024));
  };
  const empty = async () => client.del(...(await client.keys("filler:*")));

  await check();
  expect(memoryLines(warnings)).toEqual([]);

  await fill();
  expect(await usedMemory()).toBeGreaterThan(max * REDIS_MEMORY_WARN_RATIO);
  await check();
  await check();
  expect(memoryLines(warnings)).toHaveLength(1);
  expect(memoryLines(warnings)[0]).toMatch(
    /^\[redis\] memory: Redis uses \d+ MB of its 16 MB maxmemory \(\d+ %\); when it is full new sends wait in SQLite\. Raise REDIS_MAXMEMORY/,
  );

  await empty();
  await check();
  expect(memoryLines(notes)).toHaveLength(1);
  expect(memoryLines(notes)[0]).toMatch(/^\[redis\] memory: back under 80 %/);

  await fill();
  await check();
  expect(memoryLines(warnings)).toHaveLength(2);
  warnings.mockRestore();
  notes.mockRestore();
});
