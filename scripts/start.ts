// npm start: migrate, seed, Redis when none is configured, then web (+ worker unless WORKER=off).
import "./default-production.ts";
import { closeDb } from "#app/db/client.server.ts";
import { startCheckpointer } from "#app/db/checkpointer.server.ts";
import { DEMO_ACCOUNTS } from "#app/modules/auth/demo-accounts.server.ts";
import { startConfigBeacon } from "#app/modules/health/fleet-config.server.ts";
import { shutdownSendJobs } from "#app/modules/sms/send.server.ts";
import { shutdownInboundJobs } from "#app/modules/inbound/receive.server.ts";
import { closeQueues } from "#app/queue/queues.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";
import { getEnv, prepareDataDir, SETTING_NAMES } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { api, shutdownApi } from "#server/api.ts";
import { health } from "#server/health.ts";
import { metrics, startMetricsServer } from "#server/metrics.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";
import { startPrivateRedis } from "#server/redis-process.ts";
import { sameOrigin } from "#server/same-origin.ts";
import { startWorkers } from "#worker/workers.ts";
import { buildIfStale } from "./build-if-stale.ts";
import { prepareDatabase } from "./prepare-database.ts";

// The configuration first: a refused one stops the start before a build.
const env = getEnv();
if (env.isProduction && !buildIfStale((line) => log("info", "start", line))) process.exit(1);

prepareDataDir(env);

let privateRedis: Awaited<ReturnType<typeof startPrivateRedis>> | undefined;
if (!env.REDIS_URL) {
  try {
    privateRedis = await startPrivateRedis(env.DATA_DIR);
  } catch (error) {
    log("error", "start", (error as Error).message);
    process.exit(1);
  }
  process.env.REDIS_URL = privateRedis.url;
}
/** A start that fails after Redis (a port in use, a seed error) says why and leaves no Redis of ours running. */
async function failStart(error: unknown): Promise<never> {
  const { code, message } = error as NodeJS.ErrnoException;
  const why =
    code === "EADDRINUSE"
      ? `${message}: another program (perhaps another SMS Gateway) listens there; stop it or set PORT (or METRICS_PORT)`
      : message;
  log("error", "start", why);
  await closeQueues().catch(() => {});
  await closeRedis().catch(() => {});
  await privateRedis?.stop();
  await closeDb();
  process.exit(1);
}

// After Redis: the demo customer's scheduled message gets its job scheduler right away.
const { demoSeeded, setupLink } = await prepareDatabase().catch(failStart);

const checkpointer = startCheckpointer();
const server = await startHttpServer([health, metrics, sameOrigin, api]).catch(failStart);
const metricsServer = env.METRICS_PORT ? await startMetricsServer(env.METRICS_PORT).catch(failStart) : undefined;
const workers = env.WORKER === "inline" ? await startWorkers().catch(failStart) : undefined;
// For npm run doctor: every host's web and worker processes must run with the same settings.
const configBeacon = startConfigBeacon("web", SETTING_NAMES);

const url = `http://localhost:${env.PORT}`;
log("info", "start", `SMS Gateway is up on ${url} (${env.NODE_ENV}, worker ${env.WORKER}, data in ${env.DATA_DIR})`);
if (env.testMode.active) {
  const what = [
    env.testMode.payments && "payments are the offline test-card processor",
    env.testMode.sms && "SMS go to the simulator",
    env.testMode.demo && "demo accounts and data are seeded",
  ];
  log("info", "start", `test mode: ${what.filter(Boolean).join(", ")}`);
}
if (env.cardPayments === "unavailable") {
  log(
    "info",
    "start",
    "card payments are not configured (no Stripe keys): the shop says card payment is not available",
  );
}
if (demoSeeded) {
  // Never the passwords: the README's demo table has them.
  log(
    "info",
    "start",
    `demo accounts created: ${DEMO_ACCOUNTS.admin.email} (admin), ${DEMO_ACCOUNTS.customer.email} (customer); passwords in the README`,
  );
}
if (setupLink) {
  const { token, expiresAt } = setupLink;
  // A warning: the operator has something to do, and it shows whatever LOG_LEVEL hides.
  log(
    "warn",
    "start",
    `no administrator yet: create one at ${url}/setup/${token} (one use, until ${expiresAt.toISOString()})`,
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log("info", "start", `${signal}: shutting down`);
  await stopHttpServer(server);
  if (metricsServer) await stopHttpServer(metricsServer, 1_000);
  await shutdownApi();
  await workers?.close();
  await configBeacon.stop();
  await shutdownSendJobs();
  await shutdownInboundJobs();
  await closeQueues();
  await closeRedis();
  await privateRedis?.stop();
  await checkpointer.stop();
  await closeDb();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
