import { afterEach, expect, it, vi } from "vitest";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { RedisUnavailableError } from "#app/queue/redis.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

afterEach(() => {
  vi.restoreAllMocks();
  getEnv().LOG_LEVEL = "error";
});

it("logs a Redis outage once however many enqueues fail, and once more when jobs go in again", async () => {
  getEnv().LOG_LEVEL = "info";
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const infos = vi.spyOn(console, "log").mockImplementation(() => {});
  const down = () => Promise.reject(new RedisUnavailableError("reconnecting"));

  // Never thrown to the caller: the committed rows wait for their reconciler.
  await enqueueAfterCommit("group send 1", down);
  await Promise.all(Array.from({ length: 50 }, (_, i) => enqueueAfterCommit(`schedule ${i}`, down)));
  await enqueueAfterCommit("support request 3", () => {
    throw new Error("Connection is closed.");
  });
  expect(errors.mock.calls.map((args) => String(args[0]))).toEqual([
    "[queue] could not add the job for group send 1; until Redis takes jobs again, the reconcilers add them from SQLite (logged once per outage)",
  ]);
  expect(errors.mock.calls[0][1]).toBeInstanceOf(RedisUnavailableError);
  expect(infos).not.toHaveBeenCalled();

  const added: string[] = [];
  await enqueueAfterCommit("group send 2", async () => void added.push("group send 2"));
  await enqueueAfterCommit("group send 3", async () => void added.push("group send 3"));
  expect(added).toEqual(["group send 2", "group send 3"]);
  expect(infos.mock.calls.map((args) => String(args[0]))).toEqual([
    "[queue] Redis takes jobs again; the reconcilers add those that waited",
  ]);

  // The next outage is a new line.
  await enqueueAfterCommit("schedule 9", down);
  await enqueueAfterCommit("schedule 10", down);
  expect(errors).toHaveBeenCalledTimes(2);
  expect(String(errors.mock.calls[1][0])).toContain("the job for schedule 9;");
});

it("waits for the job to be added before it resolves", async () => {
  let added = false;
  await enqueueAfterCommit(
    "group send 4",
    () => new Promise<void>((resolve) => setTimeout(() => resolve(void (added = true)), 5)),
  );
  expect(added).toBe(true);
});
