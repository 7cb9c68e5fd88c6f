// Repeating jobs (job schedulers) of the workers: a period in ms works as well as a cron pattern, and
// finished runs do not pile up in Redis (seen in the fault run: a run every few seconds kept them all).
import { afterAll, expect, it } from "vitest";
import { HOUSEKEEPING_QUEUE } from "#app/queue/jobs/housekeeping.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { startWorkers } from "#worker/workers.ts";
import { waitFor } from "#tests/support/wait.ts";

const queue = getQueue(HOUSEKEEPING_QUEUE);
afterAll(() => queue.removeJobScheduler("test-every"));

it("a job scheduler with a period runs again and again, and its finished runs are removed", async () => {
  let runs = 0;
  const workers = await startWorkers([
    {
      queue: HOUSEKEEPING_QUEUE,
      concurrency: 1,
      schedules: [{ id: "test-every", every: 1_000, data: { v: 1 } }],
      process: async () => ++runs,
    },
  ]);
  try {
    await waitFor(() => runs >= 2, { timeout: 10_000, what: "two runs" });
    expect(await queue.getJobCountByTypes("completed")).toBe(0);
  } finally {
    await workers.close();
  }
});
