import { getEnv } from "#app/utils/env.server.ts";
import { QUEUES } from "#app/queue/queues.server.ts";
import { redisForRequest } from "#app/queue/redis.server.ts";

// BullMQ's own keys per state: lists for waiting and active jobs, sorted sets for the others.
const LISTS = ["wait", "active"] as const;
const SORTED_SETS = ["delayed", "prioritized", "failed"] as const;
export type QueueState = "waiting" | "active" | "delayed" | "prioritized" | "failed";

/**
 * Jobs per queue and state, in one round trip (GET /metrics). Read from the keys directly: a Queue
 * object made here would be the process's producer for that queue, without its owner's settings.
 */
export async function queueDepths(): Promise<{ queue: string; state: QueueState; jobs: number }[]> {
  const prefix = getEnv().QUEUE_PREFIX;
  const pipeline = redisForRequest().pipeline();
  const rows: { queue: string; state: QueueState }[] = [];
  for (const queue of Object.values(QUEUES)) {
    for (const key of LISTS) {
      pipeline.llen(`${prefix}:${queue}:${key}`);
      rows.push({ queue, state: key === "wait" ? "waiting" : key });
    }
    for (const key of SORTED_SETS) {
      pipeline.zcard(`${prefix}:${queue}:${key}`);
      rows.push({ queue, state: key });
    }
  }
  const results = (await pipeline.exec()) ?? [];
  return rows.map((row, i) => {
    const [error, jobs] = results[i] ?? [new Error("no answer"), 0];
    if (error) throw error;
    return { ...row, jobs: Number(jobs) };
  });
}
