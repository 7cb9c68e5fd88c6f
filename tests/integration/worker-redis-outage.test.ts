// A worker process that starts while Redis is down (or restarting) waits for it instead of exiting:
// found by the fault run (npm run test:faults), where a worker restarted right before a Redis restart
// died in its start steps. This file runs its own redis-server, so stopping it touches no other file.
import { expect, it } from "vitest";
import { SMS_RECONCILE_QUEUE } from "#app/queue/jobs/sms-reconcile.server.ts";
import { SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { OUTBOX_GRACE_MS } from "#app/modules/sms/reconcile.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { smsReconcile } from "#worker/jobs/sms-reconcile.ts";
import { startWorkers } from "#worker/workers.ts";
import { armJobSchedulers, watchJobSchedulers } from "#worker/job-schedulers.ts";
import { ownTestRedis } from "#tests/support/own-redis.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits, sendJobsFor } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const redis = ownTestRedis("outage");

it("starting workers while Redis is down waits for Redis, then schedules and reconciles as usual", async () => {
  // A message queued a minute ago: the reconciler that runs at start adds its job again.
  const user = await createTestUser();
  await grantCredits(user.id, 1);
  setClock(() => Date.now() - 60_000);
  const message = await queueMessage(user.id, { to: "+12025550140", body: "Queued before the outage" });
  resetClock();
  // Its queues are connected already (as in a worker whose Redis restarts during its start steps).
  await (await startWorkers([smsReconcile])).close();
  await redis.stop();

  // The first start re-added its job (lost with this Redis's data) and looks again a grace period later.
  setClock(() => Date.now() + OUTBOX_GRACE_MS + 1_000);
  let started = false;
  let failed: unknown = null;
  const starting = startWorkers([smsReconcile]).then(
    (workers) => ((started = true), workers),
    (error) => ((failed = error), null),
  );
  // Commands on the shared connection give up (maxRetriesPerRequest) while Redis is away; twice over,
  // the start steps have failed too, and must still be waiting.
  for (let i = 0; i < 2; i++) await expect(getQueue(SMS_SEND_QUEUE).getJobCounts("waiting")).rejects.toThrow();
  expect(failed).toBeNull();
  expect(started).toBe(false);

  await redis.restart();
  const workers = await starting;
  expect(failed).toBeNull();
  const schedulers = await getQueue(SMS_RECONCILE_QUEUE).getJobSchedulers();
  expect(schedulers.map((s) => s.key)).toContain("sms-reconcile");
  expect((await sendJobsFor(message.id)).length).toBeGreaterThanOrEqual(1);
  await workers?.close();
  resetClock();
});

// The watch alone, without BullMQ's workers: a Worker whose Redis restarted sometimes never settles
// its close() (BullMQ's blocking connection left reconnecting), which is not what this tests.
it("a running worker whose Redis comes back empty adds its job schedulers again, and at once the send jobs Redis lost", async () => {
  await armJobSchedulers([smsReconcile]);
  const watch = watchJobSchedulers([smsReconcile], 50);
  const schedulerKeys = async () => (await getQueue(SMS_RECONCILE_QUEUE).getJobSchedulers()).map((s) => s.key);
  expect(await schedulerKeys()).toEqual(["sms-reconcile"]);
  const user = await createTestUser();
  await grantCredits(user.id, 2);
  // Queued just now, its send job in Redis: the fault run's sends right before Redis restarted empty.
  const recent = await queueMessage(user.id, { to: "+12025550142", body: "Queued right before the restart" });
  expect((await sendJobsFor(recent.id)).length).toBe(1);

  // Found by the fault run: a worker started just before Redis restarted empty and none after it, so
  // no reconciler ran again and the messages whose send jobs were lost stayed queued for good.
  await redis.stop();
  setClock(() => Date.now() - 60_000);
  // Its job cannot be added while Redis is away: only the outbox has it.
  const whileAway = await queueMessage(user.id, { to: "+12025550141", body: "Queued while Redis was away" });
  resetClock();
  await redis.restart();
  await waitFor(async () => (await schedulerKeys().catch((): string[] => [])).includes("sms-reconcile"), {
    what: "the sms-reconcile job scheduler added again",
  });
  // The recent message's outbox row is seconds old, far from the reconciler's grace, and its job comes
  // back at once too: the fault run's workers on PostgreSQL had sent nothing for 27 s after such a
  // restart, until the grace ran out.
  for (const message of [whileAway, recent])
    await waitFor(async () => (await sendJobsFor(message.id).catch(() => [])).length > 0, {
      timeout: OUTBOX_GRACE_MS / 2,
      what: `the send job of message ${message.id} added again`,
    });
  watch.stop();
});
