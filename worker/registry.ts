import type { Job } from "bullmq";
import type { QueueName } from "../app/queue/queues.server.ts";
import { demoPurge } from "./jobs/demo-purge.ts";
import { housekeeping } from "./jobs/housekeeping.ts";

export type JobDefinition = {
  queue: QueueName;
  /** Jobs of this queue processed at once by one worker process. */
  concurrency: number;
  /** Repeating jobs this queue owns (kept in Redis by upsertJobScheduler). */
  schedules?: { id: string; pattern: string; data: unknown }[];
  process: (job: Job) => Promise<unknown>;
  /** Runs once when the worker starts (e.g. reconcilers). */
  onStart?: () => Promise<void>;
};

export const jobDefinitions: JobDefinition[] = [housekeeping, demoPurge];
