// Redis is not the record: after a FLUSHALL and a worker restart every schedule is back, what fell due
// meanwhile is sent once, and nothing is sent twice. This file runs its own redis-server, so its
// FLUSHALL touches no other test file's keys.
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { book, getBalance } from "#app/modules/credits/ledger.server.ts";
import { armSchedule } from "#app/modules/scheduling/job-schedulers.server.ts";
import { reconcileSchedules } from "#app/modules/scheduling/runner.server.ts";
import { cancelSchedule, createSchedule, getSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { smsSchedule } from "#worker/jobs/sms-schedule.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { ownTestRedis } from "#tests/support/own-redis.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { occurrenceJob, scheduleSoon, schedulerOf, sentOccurrences, tick } from "#tests/support/schedules.ts";
import { waitFor } from "#tests/support/wait.ts";

const redis = ownTestRedis("flush");
let workers: RunningWorkers | undefined;

afterEach(async () => {
  resetClock();
  await workers?.close();
  workers = undefined;
});

async function flushAll() {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
}

async function customer(credits: number) {
  const user = await createTestUser();
  await book({ userId: user.id, kind: "grant", amount: credits, key: `grant:${user.id}` });
  return user;
}

it("FLUSHALL then a worker restart restores the schedulers, removes orphans and sends nothing twice", async () => {
  const user = await customer(20);
  workers = await startWorkers([smsSchedule]);
  const oneOff = await scheduleSoon(user.id, { body: "Once" });
  const daily = await scheduleSoon(user.id, { body: "Every day", repeat: "daily", timeZone: "Europe/London" });
  const weekly = await createSchedule(user.id, {
    target: { kind: "phone", to: "+12025550184" },
    body: "Every week",
    repeat: "weekly",
    firstSendAt: Date.now() + 86_400_000,
    timeZone: "America/New_York",
  });
  const cancelled = await scheduleSoon(user.id, { body: "Never", inMs: 3_600_000 });
  await cancelSchedule(user.id, cancelled.id);
  // The daily schedule's message is stored before its row moves on to the next occurrence.
  const firstOccurrencesDone = async () =>
    (await getSchedule(user.id, oneOff.id))?.status === "completed" &&
    (await sentOccurrences(daily.id)).length === 1 &&
    (await getSchedule(user.id, daily.id))?.nextRunAt !== daily.firstSendAt;
  await waitFor(firstOccurrencesDone, { what: "the first occurrences" });
  const dailyNext = (await getSchedule(user.id, daily.id))!.nextRunAt!;
  await waitFor(() => occurrenceJob(daily.id, dailyNext), { what: "the daily schedule's next job" });

  await workers.close();
  await flushAll();
  expect(await schedulerOf(daily.id)).toBeUndefined();
  // A leftover that Redis has and the table does not want: the cancelled schedule's scheduler.
  await armSchedule(cancelled.id, {
    repeat: "none",
    firstSendAt: cancelled.firstSendAt,
    timeZone: "UTC",
    endsAt: null,
  });
  expect(await schedulerOf(cancelled.id)).toBeDefined();

  workers = await startWorkers([smsSchedule]);
  expect(await schedulerOf(daily.id)).toMatchObject({ next: dailyNext, pattern: "daily", tz: "Europe/London" });
  expect(await occurrenceJob(daily.id, dailyNext)).toBeDefined();
  expect(await schedulerOf(weekly.id)).toMatchObject({
    next: weekly.firstSendAt,
    pattern: "weekly",
    tz: "America/New_York",
  });
  expect(await schedulerOf(oneOff.id)).toBeUndefined();
  expect(await schedulerOf(cancelled.id)).toBeUndefined();
  expect(await sentOccurrences(oneOff.id)).toHaveLength(1);
  expect(await sentOccurrences(daily.id)).toHaveLength(1);

  // The restored scheduler runs the next tick, once; reconciling again sends nothing more.
  await tick(user.id, daily.id);
  expect(await reconcileSchedules({ sync: true })).toEqual({ caughtUp: 0, armed: 0, removed: 0 });
  expect(await sentOccurrences(daily.id)).toEqual([daily.firstSendAt, dailyNext]);
  expect(await sentOccurrences(cancelled.id)).toEqual([]);
  expect(await getBalance(user.id)).toBe(17);
});

it("an occurrence that fell due while Redis was flushed and the worker down is sent once when it is back", async () => {
  const user = await customer(5);
  // No worker yet: the first occurrence's job waits in Redis, and the flush loses it.
  const daily = await scheduleSoon(user.id, { body: "Missed while down", repeat: "daily" });
  await flushAll();

  // Back two minutes after it was due (well within SCHEDULE_MAX_LATE_MINUTES).
  setClock(() => daily.firstSendAt + 120_000);
  workers = await startWorkers([smsSchedule]);
  expect(await sentOccurrences(daily.id)).toEqual([daily.firstSendAt]);
  const next = daily.firstSendAt + 86_400_000;
  expect(await getSchedule(user.id, daily.id)).toMatchObject({ status: "active", nextRunAt: next });
  // BullMQ's time is real time, behind the test clock: it re-armed the schedule at its first send.
  // That tick finds the occurrence handled and sends nothing, and the scheduler moves on to the next.
  await waitFor(async () => (await schedulerOf(daily.id))?.next === next, {
    what: "the scheduler to reach the next day",
  });
  expect(await sentOccurrences(daily.id)).toEqual([daily.firstSendAt]);

  // Another restart finds nothing to do.
  await workers.close();
  workers = await startWorkers([smsSchedule]);
  expect(await sentOccurrences(daily.id)).toEqual([daily.firstSendAt]);
  expect(await getBalance(user.id)).toBe(4);
});
