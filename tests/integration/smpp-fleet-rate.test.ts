// SMPP_TPS is the deployment's total: three worker processes, each bound to the SMSC, share one
// token bucket in Redis. Together they stay within the limit over every 10 s window (5 % at most
// over) while using it fully.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readHeartbeats } from "#app/modules/health/heartbeat.server.ts";
import { queueMessages } from "#app/modules/sms/send.server.ts";
import { TestSmsc } from "#tests/support/smpp-server.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";
import { startWorkerProcess, stopChildren } from "#tests/support/child-processes.ts";
import { waitFor } from "#tests/support/wait.ts";

const TPS = 50;
const MESSAGES = 750;
const WINDOW_MS = 10_000;

let smsc: TestSmsc;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  smsc = await TestSmsc.start();
  for (let i = 0; i < 3; i++) {
    const env = {
      ...process.env,
      SMS_TRANSPORT: "smpp",
      SMPP_URL: smsc.url(),
      SMPP_TPS: String(TPS),
      SMPP_WINDOW: "20",
      // One job at a time each: the four jobs of the burst keep all three busy.
      WORKER_CONCURRENCY: "1",
      WORKER_NICE: "0",
    };
    workers.push(startWorkerProcess(env));
  }
}, 60_000);

afterAll(async () => {
  await stopChildren(workers);
  await smsc?.stop();
}, 60_000);

it("three workers together send at SMPP_TPS, never 5 % over it in any 10 s window", async () => {
  await waitFor(
    async () => [...(await readHeartbeats()).values()].filter((beat) => beat.smpp?.bound === 1).length === 3,
    {
      what: "three workers bound to the SMSC",
      timeout: 60_000,
      interval: 250,
    },
  );
  const user = await createTestUser();
  await grantCredits(user.id, MESSAGES);
  await queueMessages(
    user.id,
    Array.from({ length: MESSAGES }, (_, i) => ({
      to: `+1202555${String(2000 + i).padStart(4, "0")}`,
      body: `Fleet ${i}`,
    })),
  );
  await waitFor(() => smsc.accepted.length >= MESSAGES, {
    what: () => `${MESSAGES} submits (${smsc.accepted.length} so far)`,
    timeout: 90_000,
    interval: 200,
  });

  const times = smsc.accepted.map((s) => s.receivedAt).sort((a, b) => a - b);
  let busiest = 0;
  for (let start = 0, end = 0; start < times.length; start++) {
    while (end < times.length && times[end] < times[start] + WINDOW_MS) end++;
    busiest = Math.max(busiest, end - start);
  }
  const limit = (TPS * WINDOW_MS) / 1000;
  expect(busiest).toBeLessThanOrEqual(limit * 1.05);
  // Used fully: the first 10 s of the burst carried at least 95 % of the limit.
  expect(times.filter((t) => t < times[0] + WINDOW_MS).length).toBeGreaterThanOrEqual(limit * 0.95);
  // All three processes sent.
  expect(new Set(smsc.accepted.map((s) => s.session)).size).toBeGreaterThanOrEqual(3);
  expect(smsc.counters.duplicates).toBe(0);
}, 180_000);
