// npm start: migrate, seed, Redis when none is configured, then web (+ worker unless WORKER=off).
import { buildIfStale } from "./build-if-stale.ts";

process.env.NODE_ENV ??= "production";

if (process.env.NODE_ENV === "production" && !buildIfStale((line) => console.log(`[start] ${line}`))) process.exit(1);

const { env } = await import("../app/utils/env.server.ts");
const { runMigrations } = await import("../app/db/migrate.server.ts");
const { seedDatabase } = await import("../app/modules/seed/seed.server.ts");
const { DEMO_ACCOUNTS } = await import("../app/modules/auth/demo-accounts.server.ts");
const { adminExists, issueSetupToken } = await import("../app/modules/auth/first-admin.server.ts");
const { startPrivateRedis } = await import("../server/redis-process.ts");

runMigrations();

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
// After Redis: the demo customer's scheduled message gets its job scheduler right away.
const { demoSeeded } = await seedDatabase();

const { startHttpServer, stopHttpServer } = await import("../server/http.ts");
const { health } = await import("../server/health.ts");
const { sameOrigin } = await import("../server/same-origin.ts");
const { api, shutdownApi } = await import("../server/api.ts");
const { closeRedis } = await import("../app/queue/redis.server.ts");
const { closeQueues } = await import("../app/queue/queues.server.ts");
const { shutdownSendJobs } = await import("../app/modules/sms/send.server.ts");
const { sqlite } = await import("../app/db/client.server.ts");
const { startCheckpointer } = await import("../app/db/checkpointer.server.ts");

const checkpointer = startCheckpointer();
const server = await startHttpServer([health, sameOrigin, api]);
const workers = env.WORKER === "inline" ? await (await import("../worker/workers.ts")).startWorkers() : undefined;

const url = `http://localhost:${env.PORT}`;
console.log(`[start] SMS Gateway is up on ${url} (${env.NODE_ENV}, worker ${env.WORKER}, data in ${env.DATA_DIR})`);
if (env.testMode.active) {
  const what = [env.testMode.payments && "payments are the offline test-card processor", env.testMode.sms && "SMS go to the simulator"];
  console.log(`[start] test mode: ${what.filter(Boolean).join(", ")}`);
}
if (demoSeeded) {
  // Never the passwords: the README's demo table has them.
  console.log(`[start] demo accounts created: ${DEMO_ACCOUNTS.admin.email} (admin), ${DEMO_ACCOUNTS.customer.email} (customer); passwords in the README`);
}
if (!adminExists()) {
  const { token, expiresAt } = issueSetupToken();
  console.log(`[start] no administrator yet: create one at ${url}/setup/${token} (one use, until ${expiresAt.toISOString()})`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[start] ${signal}: shutting down`);
  await stopHttpServer(server);
  await shutdownApi();
  await workers?.close();
  await shutdownSendJobs();
  await closeQueues();
  await closeRedis();
  await privateRedis?.stop();
  await checkpointer.stop();
  sqlite.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
