// npm run worker: queue workers as their own process (use with WORKER=off on the web side).
import { getPriority, setPriority } from "node:os";
import { closeQueues } from "#app/queue/queues.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";
import { closeDb } from "#app/db/client.server.ts";
import { startCheckpointer } from "#app/db/checkpointer.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { shutdownSendJobs } from "#app/modules/sms/send.server.ts";
import { shutdownInboundJobs } from "#app/modules/inbound/receive.server.ts";
import { getEnv, prepareDataDir } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { startWorkers } from "#worker/workers.ts";

// Under load the web's answers come first: sending is throughput work that may lag a moment
// behind, while an API client or a person waits on every request.
try {
  setPriority(Math.max(getPriority(), getEnv().WORKER_NICE));
} catch {
  // Not allowed here (some containers): run at the inherited priority.
}

prepareDataDir();
await runMigrations();
const checkpointer = startCheckpointer();
const workers = await startWorkers();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log("info", "worker", `${signal}: finishing in-flight jobs`);
  await workers.close();
  await shutdownSendJobs();
  await shutdownInboundJobs();
  await closeQueues();
  await closeRedis();
  await checkpointer.stop();
  await closeDb();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
