// Before each test file's imports: its own copy of the migrated database and its own Redis prefix.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-test-"));
copyFileSync(inject("templateDb"), join(dataDir, "app.db"));

process.env.NODE_ENV = "test";
process.env.DATA_DIR = dataDir;
process.env.REDIS_URL = inject("redisUrl");
process.env.QUEUE_PREFIX = `t${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
process.env.SESSION_SECRET = "test-session-secret";
process.env.LOG_LEVEL = "error";
process.env.SEED_DEMO = "0";

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

afterAll(async () => {
  // Close what this file opened so its process can exit.
  const { closeQueues } = await import("../../app/queue/queues.server.ts");
  const { closeRedis } = await import("../../app/queue/redis.server.ts");
  await closeQueues();
  await closeRedis();
});
