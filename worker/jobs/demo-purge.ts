import type { Job } from "bullmq";
import { purgeDemoOrders } from "#app/modules/shop/orders.server.ts";
import { DEMO_PURGE_QUEUE, DemoPurgePayload } from "#app/queue/jobs/demo-purge.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const SCHEDULE_ID = "demo-order-purge";

/** DEMO_MODE only: every 15 minutes, orders older than 3 days go (the spec's red notice). */
export const demoPurge: JobDefinition = {
  queue: DEMO_PURGE_QUEUE,
  concurrency: 1,
  get schedules() {
    return getEnv().DEMO_MODE ? [{ id: SCHEDULE_ID, pattern: "0 */15 * * * *", data: { v: 1 } }] : [];
  },
  async onStart() {
    // A scheduler kept in Redis from an earlier demo run must not outlive DEMO_MODE.
    if (!getEnv().DEMO_MODE) await getQueue(DEMO_PURGE_QUEUE).removeJobScheduler(SCHEDULE_ID);
  },
  async process(job: Job) {
    DemoPurgePayload.parse(job.data);
    return purgeDemoOrders();
  },
};
