import type { Job } from "bullmq";
import { purgeExpired } from "#app/modules/housekeeping/housekeeping.server.ts";
import { applyRetention } from "#app/modules/housekeeping/retention.server.ts";
import { HOUSEKEEPING_QUEUE, HousekeepingPayload } from "#app/queue/jobs/housekeeping.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

export const housekeeping: JobDefinition = {
  queue: HOUSEKEEPING_QUEUE,
  concurrency: 1,
  schedules: [{ id: "hourly-purge", pattern: "0 0 * * * *", data: { v: 1 } }],
  async process(job: Job) {
    HousekeepingPayload.parse(job.data);
    return { ...(await purgeExpired()), ...(await applyRetention()) };
  },
};
