import { getEnv } from "#app/utils/env.server.ts";
import { DEMO_PURGE_QUEUE } from "#app/queue/jobs/demo-purge.server.ts";
import { GROUP_SEND_QUEUE } from "#app/queue/jobs/group-send.server.ts";
import { HOUSEKEEPING_QUEUE } from "#app/queue/jobs/housekeeping.server.ts";
import { MAIL_QUEUE } from "#app/queue/jobs/mail.server.ts";
import { SMS_INBOUND_QUEUE } from "#app/queue/jobs/sms-inbound.server.ts";
import { SMS_RECONCILE_QUEUE } from "#app/queue/jobs/sms-reconcile.server.ts";
import { SMS_SCHEDULE_RECONCILE_QUEUE } from "#app/queue/jobs/sms-schedule-reconcile.server.ts";
import { SMS_SCHEDULE_QUEUE } from "#app/queue/jobs/sms-schedule.server.ts";
import { SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { WEBHOOKS_QUEUE } from "#app/queue/jobs/webhooks.server.ts";
import { redisForRequest } from "#app/queue/redis.server.ts";

// Every queue of the product, in the order the metrics list them (tests/unit/job-files.test.ts checks it is whole).
export const QUEUES = [
  HOUSEKEEPING_QUEUE,
  MAIL_QUEUE,
  SMS_SEND_QUEUE,
  SMS_RECONCILE_QUEUE,
  DEMO_PURGE_QUEUE,
  SMS_SCHEDULE_QUEUE,
  SMS_SCHEDULE_RECONCILE_QUEUE,
  GROUP_SEND_QUEUE,
  SMS_INBOUND_QUEUE,
  WEBHOOKS_QUEUE,
];

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
  for (const queue of QUEUES) {
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
