// What a worker job module declares; registry.ts lists them and workers.ts runs them.
import type { Job, WorkerOptions } from "bullmq";
import type { QueueName } from "#app/queue/queues.server.ts";

export type JobDefinition = {
  queue: QueueName;
  /** Jobs of this queue processed at once by one worker process. */
  concurrency: number;
  /** Repeating jobs this queue owns (kept in Redis by upsertJobScheduler): a cron pattern (UTC) or a period in ms. */
  schedules?: ({ id: string; data: unknown } & ({ pattern: string } | { every: number }))[];
  process: (job: Job) => Promise<unknown>;
  /** Worker settings such as a custom backoff strategy for this queue's retries. */
  settings?: WorkerOptions["settings"];
  /** Runs once when the worker starts (e.g. reconcilers, opening a transport). */
  onStart?: () => Promise<void>;
  /**
   * Runs when a running worker finds that Redis came back empty (every queued job lost with it): e.g.
   * a reconciler adding the lost jobs again at once, instead of after its grace period.
   */
  onRedisEmptied?: () => Promise<void>;
  /** Runs once after the worker has closed and its in-flight jobs finished (e.g. closing a transport). */
  onStop?: () => Promise<void>;
};
