import { type Job, Worker } from "bullmq";
import { startConfigBeacon } from "#app/modules/health/fleet-config.server.ts";
import { startHeartbeat } from "#app/modules/health/heartbeat.server.ts";
import { smsCounters } from "#app/modules/health/sms-counters.server.ts";
import { smppBindStatus } from "#app/modules/sms/transports/smpp-status.server.ts";
import { upstreamStates } from "#app/modules/sms/transports/routed.server.ts";
import { queueBaseOptions } from "#app/queue/queues.server.ts";
import { createWorkerConnection } from "#app/queue/redis.server.ts";
import { startRedisMemoryWatch } from "#app/queue/redis-memory.server.ts";
import { SETTING_NAMES } from "#app/utils/env.server.ts";
import { log, logs, runWithLogContext } from "#app/utils/log.server.ts";
import { workCounts } from "#app/utils/work-counts.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";
import { armJobSchedulers, watchJobSchedulers } from "#worker/job-schedulers.ts";
import { jobDefinitions } from "#worker/registry.ts";

export type RunningWorkers = { close: () => Promise<void> };

/** How long a starting worker keeps trying its start steps (Redis starting or restarting) before it gives up. */
const START_RETRY_MS = 60_000;

/**
 * A start step that needs Redis, tried again with backoff while it fails: a worker started before
 * Redis, or while it restarts, waits for it instead of exiting. Every step is idempotent.
 */
async function startStep(what: string, step: () => Promise<unknown>, giveUpAt: number): Promise<void> {
  for (let delay = 250; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      await step();
      return;
    } catch (error) {
      if (Date.now() + delay > giveUpAt) throw error;
      log("warn", "worker", `${what} failed (${(error as Error).message}); trying again in ${delay} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Runs a job with its id (and the id of the HTTP request that added it, when the producer gave one)
 * on every line it logs.
 */
function runJob(definition: JobDefinition, job: Job): Promise<unknown> {
  const requestId = typeof job.data?.originRequestId === "string" ? job.data.originRequestId : undefined;
  return runWithLogContext({ jobId: job.id, queue: definition.queue, requestId }, async () => {
    if (!logs("debug")) return definition.process(job);
    const started = performance.now();
    const result = await definition.process(job);
    log("debug", "worker", "job done", { ms: Math.round(performance.now() - started) });
    return result;
  });
}

/** Starts one BullMQ worker per job definition; close() lets in-flight jobs finish. */
export async function startWorkers(
  definitions: JobDefinition[] = jobDefinitions,
  { schedulersCheckMs }: { schedulersCheckMs?: number } = {},
): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  const giveUpAt = Date.now() + START_RETRY_MS;
  await startStep("job schedulers", () => armJobSchedulers(definitions), giveUpAt);
  for (const definition of definitions) {
    await startStep(`${definition.queue}: start`, async () => definition.onStart?.(), giveUpAt);
    const worker = new Worker(definition.queue, (job) => runJob(definition, job), {
      ...queueBaseOptions(),
      connection: createWorkerConnection(),
      concurrency: definition.concurrency,
      // The queue's repeat strategy too: a worker schedules each job scheduler's next iteration.
      settings: definition.settings,
    });
    worker.on("error", (error) => log("error", "worker", `${definition.queue}: ${error.message}`));
    worker.on("failed", (job, error) => {
      // A failed attempt that will be retried is routine (e.g. a throttling SMSC); the last one is not.
      const final = !job || Boolean(job.finishedOn);
      log(
        final ? "error" : "info",
        "worker",
        `${definition.queue} job ${job?.id} ${final ? "failed" : "will retry"}: ${error.message}`,
      );
    });
    workers.push(worker);
  }
  log("info", "worker", `started: ${definitions.map((d) => d.queue).join(", ")}`);
  // Where the workers run, once per deployment: the queues are what fills Redis.
  const memoryWatch = startRedisMemoryWatch();
  const schedulersWatch = watchJobSchedulers(definitions, schedulersCheckMs);
  // Alive and the SMPP bind's state for /readyz (any one worker alive is enough), its counters and work counts for /metrics.
  const heartbeat = startHeartbeat(() => ({
    smpp: smppBindStatus(),
    upstreams: upstreamStates(),
    counters: smsCounters(),
    work: workCounts(),
  }));
  // For npm run doctor: the settings this worker runs with, beside every other process's.
  const configBeacon = startConfigBeacon("worker", SETTING_NAMES);
  return {
    close: async () => {
      memoryWatch.stop();
      schedulersWatch.stop();
      await heartbeat.stop();
      await configBeacon.stop();
      await Promise.all(workers.map((w) => w.close()));
      for (const definition of definitions) await definition.onStop?.();
    },
  };
}
