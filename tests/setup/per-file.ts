// Before each test file's imports: its own copy of the migrated database and its own Redis prefix.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import { closeQueues } from "#app/queue/queues.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";
import { parseEnv, prepareDataDir } from "#app/utils/env.server.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-test-"));
copyFileSync(inject("templateDb"), join(dataDir, "app.db"));

process.env.NODE_ENV = "test";
process.env.DATA_DIR = dataDir;
process.env.REDIS_URL = inject("redisUrl");
process.env.QUEUE_PREFIX = `t${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
process.env.SESSION_SECRET = "test-session-secret";
process.env.LOG_LEVEL = "error";
process.env.SEED_DEMO = "0";
if (process.env.TEST_ENGINE === "postgres") {
  // The "postgres" project: a migrated database of this file's own in the run's private cluster.
  process.env.DATABASE_URL = await freshDatabase({ migrated: true });
  process.env.API_KEY_SECRET = "test-api-key-secret-at-least-32-characters";
}
// The secrets go into this file's DATA_DIR. Parsed here but not kept: a test file may still set
// its own variables (Stripe keys...) before its first getEnv().
prepareDataDir(parseEnv(process.env));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

afterAll(async () => {
  // Close what this file opened so its process can exit.
  await closeQueues();
  await closeRedis();
});
