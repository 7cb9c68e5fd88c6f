import { readdirSync } from "node:fs";
import { expect, it } from "vitest";
import { QUEUES } from "#app/queue/queue-depth.server.ts";
import { jobDefinitions } from "#worker/registry.ts";

const jobFiles = readdirSync(new URL("../../app/queue/jobs/", import.meta.url)).filter((name) =>
  name.endsWith(".server.ts"),
);

// A job is its producer file (app/queue/jobs) and its consumer file (worker/jobs); the two lists that
// name every queue are checked here, so a job left out of either fails with its name.
it("has every job file's queue run by a worker and counted in /metrics", async () => {
  const declared: string[] = [];
  for (const file of jobFiles) {
    const exports = (await import(`../../app/queue/jobs/${file}`)) as Record<string, unknown>;
    const names = Object.entries(exports).filter(([key, value]) => key.endsWith("_QUEUE") && typeof value === "string");
    expect(names, `${file} declares one queue name`).toHaveLength(1);
    declared.push(names[0]![1] as string);
  }
  expect([...jobDefinitions.map((job) => job.queue)].sort()).toEqual([...declared].sort());
  expect([...QUEUES].sort()).toEqual([...declared].sort());
});
