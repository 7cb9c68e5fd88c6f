// npm start: migrate, seed, Redis when none is configured, then web (+ worker unless WORKER=off).
import { buildIfStale } from "./build-if-stale.ts";

process.env.NODE_ENV ??= "production";

if (process.env.NODE_ENV === "production" && !buildIfStale((line) => console.log(`[start] ${line}`))) process.exit(1);

const { env } = await import("../app/utils/env.server.ts");
const { runMigrations } = await import("../app/db/migrate.server.ts");
const { seedDatabase, DEMO_ACCOUNTS } = await import("../app/db/seed.server.ts");
const { startPrivateRedis } = await import("../server/redis-process.ts");

runMigrations();
await seedDatabase();

let privateRedis: Awaited<ReturnType<typeof startPrivateRedis>> | undefined;
if (!env.REDIS_URL) {
  try {
    privateRedis = await startPrivateRedis(env.DATA_DIR);
  } catch (error) {
    console.error(`[start] ${(error as Error).message}`);
    process.exit(1);
  }
  process.env.REDIS_URL = privateRedis.url;
}

const { startHttpServer, stopHttpServer } = await import("../server/http.ts");
const { health } = await import("../server/health.ts");
const { sameOrigin } = await import("../server/same-origin.ts");
const { api } = await import("../server/api.ts");
const { closeRedis } = await import("../app/queue/redis.server.ts");
const { closeQueues } = await import("../app/queue/queues.server.ts");
const { sqlite } = await import("../app/db/client.server.ts");
const { startCheckpointer } = await import("../app/db/checkpointer.server.ts");

const checkpointer = startCheckpointer();
const server = await startHttpServer([health, sameOrigin, api]);
const workers = env.WORKER === "inline" ? await (await import("../worker/workers.ts")).startWorkers() : undefined;

const url = `http://localhost:${env.PORT}`;
console.log(`[start] SMS Gateway is up on ${url} (${env.NODE_ENV}, worker ${env.WORKER}, data in ${env.DATA_DIR})`);
if (env.SEED_DEMO) {
  console.log(`[start] demo admin:    ${DEMO_ACCOUNTS.admin.email} / ${DEMO_ACCOUNTS.admin.password}`);
  console.log(`[start] demo customer: ${DEMO_ACCOUNTS.customer.email} / ${DEMO_ACCOUNTS.customer.password}`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[start] ${signal}: shutting down`);
  await stopHttpServer(server);
  await workers?.close();
  await closeQueues();
  await closeRedis();
  await privateRedis?.stop();
  await checkpointer.stop();
  sqlite.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
