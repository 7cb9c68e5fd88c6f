import { Worker } from "bullmq";
import { getQueue, QUEUE_SETTINGS, queueBaseOptions } from "../app/queue/queues.server.ts";
import { createWorkerConnection } from "../app/queue/redis.server.ts";
import { log } from "../app/utils/log.server.ts";
import { type JobDefinition, jobDefinitions } from "./registry.ts";

export type RunningWorkers = { close: () => Promise<void> };

/** Starts one BullMQ worker per job definition; close() lets in-flight jobs finish. */
export async function startWorkers(definitions: JobDefinition[] = jobDefinitions): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  for (const definition of definitions) {
    for (const schedule of definition.schedules ?? []) {
      await getQueue(definition.queue).upsertJobScheduler(
        schedule.id,
        { pattern: schedule.pattern, tz: "UTC" },
        { name: schedule.id, data: schedule.data },
      );
    }
    await definition.onStart?.();
    const worker = new Worker(definition.queue, (job) => definition.process(job), {
      ...queueBaseOptions(),
      connection: createWorkerConnection(),
      concurrency: definition.concurrency,
      // The queue's repeat strategy too: a worker schedules each job scheduler's next iteration.
      settings: { ...QUEUE_SETTINGS[definition.queue], ...definition.settings },
    });
    worker.on("error", (error) => log("error", "worker", `${definition.queue}: ${error.message}`));
    worker.on("failed", (job, error) => {
      // A failed attempt that will be retried is routine (e.g. a throttling SMSC); the last one is not.
      const final = !job || Boolean(job.finishedOn);
      log(final ? "error" : "info", "worker", `${definition.queue} job ${job?.id} ${final ? "failed" : "will retry"}: ${error.message}`);
    });
    workers.push(worker);
  }
  log("info", "worker", `started: ${definitions.map((d) => d.queue).join(", ")}`);
  return {
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      for (const definition of definitions) await definition.onStop?.();
    },
  };
}
