// Each reconciler runs in one worker process at a time (a Redis lock every host shares): a run
// meanwhile, at another worker's start or on the schedule, is skipped.
import type { Job } from "bullmq";
import { expect, it } from "vitest";
import { getRedis, redisKey } from "#app/queue/redis.server.ts";
import { reconciler, runAlone } from "#app/queue/run-alone.server.ts";
import { waitFor } from "#tests/support/wait.ts";
import type { JobDefinition } from "#worker/job-definition.ts";
import { groupSend } from "#worker/jobs/group-send.ts";
import { mail } from "#worker/jobs/mail.ts";
import { smsReconcile } from "#worker/jobs/sms-reconcile.ts";
import { smsScheduleReconcile } from "#worker/jobs/sms-schedule-reconcile.ts";
import { webhooks } from "#worker/jobs/webhooks.ts";

/** A reconcile that runs until released, counting its runs. */
function heldReconcile() {
  const held = { runs: 0, release: () => {} };
  const reconcile = reconciler("test-reconcile", async () => {
    held.runs += 1;
    await new Promise<void>((release) => (held.release = release));
    return { enqueued: held.runs };
  });
  return { held, reconcile };
}

it("runs one of two concurrent reconciles and skips the other, then runs again once it is done", async () => {
  const { held, reconcile } = heldReconcile();
  const first = reconcile();
  const second = reconcile();
  expect(await second).toEqual({ skipped: "test-reconcile is running in another process" });
  expect(held.runs).toBe(1);
  held.release();
  expect(await first).toEqual({ enqueued: 1 });
  const third = reconcile();
  await waitFor(() => held.runs === 2, { what: "the third reconcile to run" });
  held.release();
  expect(await third).toEqual({ enqueued: 2 });
});

it("skips while another process holds the lock, and runs once its holder's time ran out", async () => {
  const key = redisKey("run-alone", "test-lapsed");
  await getRedis().set(key, "another-process", "PX", 60_000);
  let runs = 0;
  const work = async () => ++runs;
  expect(await runAlone("test-lapsed", work)).toEqual({ skipped: expect.any(String) });
  // The holder died: its lock lapses (here at once) and the next run takes it.
  await getRedis().pexpire(key, 1);
  await waitFor(async () => (await getRedis().exists(key)) === 0, { what: "the lock to lapse" });
  expect(await runAlone("test-lapsed", work)).toBe(1);
  expect(await getRedis().exists(key)).toBe(0);
});

it("releases only its own lock: one that lapsed and was taken by another process stays", async () => {
  const key = redisKey("run-alone", "test-own");
  const outcome = await runAlone("test-own", async () => {
    // This run's lock lapsed (a long stall) and another process took it.
    await getRedis().set(key, "another-process", "PX", 60_000);
    return "done";
  });
  expect(outcome).toBe("done");
  expect(await getRedis().get(key)).toBe("another-process");
});

it("is how every reconciler of the worker runs: a scheduled run while another process reconciles is skipped", async () => {
  const reconciles: [JobDefinition, string, unknown][] = [
    [mail, "mail-reconcile", { v: 1 }],
    [webhooks, "webhooks-reconcile", { v: 1 }],
    [groupSend, "group-send-reconcile", { v: 1 }],
    [smsReconcile, "sms-reconcile", { v: 1 }],
    [smsScheduleReconcile, "schedules-reconcile", { v: 1, sync: true }],
  ];
  for (const [definition, name, data] of reconciles) {
    await getRedis().set(redisKey("run-alone", name), "another-process", "PX", 60_000);
    // The webhooks' scheduled run still caps pending deliveries first, as before.
    expect(await definition.process({ name, data } as Job)).toMatchObject({
      skipped: `${name} is running in another process`,
    });
  }
});
