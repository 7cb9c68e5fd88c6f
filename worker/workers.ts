import { Worker } from "bullmq";
import { getQueue, queueBaseOptions } from "../app/queue/queues.server.ts";
import { createWorkerConnection } from "../app/queue/redis.server.ts";
import { env } from "../app/utils/env.server.ts";
import { type JobDefinition, jobDefinitions } from "./registry.ts";

export type RunningWorkers = { close: () => Promise<void> };

function log(level: "info" | "error", message: string, extra?: unknown) {
  if (env.LOG_LEVEL === "silent" || (level === "info" && (env.LOG_LEVEL === "warn" || env.LOG_LEVEL === "error"))) return;
  const line = `[worker] ${message}`;
  if (level === "error") console.error(line, extra ?? "");
  else console.log(line);
}

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
    });
    worker.on("error", (error) => log("error", `${definition.queue}: ${error.message}`));
    worker.on("failed", (job, error) => log("error", `${definition.queue} job ${job?.id} failed: ${error.message}`));
    workers.push(worker);
  }
  log("info", `started: ${definitions.map((d) => d.queue).join(", ")}`);
  return {
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      for (const definition of definitions) await definition.onStop?.();
    },
  };
}
