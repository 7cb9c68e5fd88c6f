// SMPP_MAX_BINDS caps the SMPP sessions of the whole deployment (decision 129): two worker
// processes asking for two binds each under a cap of three open three sessions at the SMSC, send
// through those, and when one worker stops its slots go to the other's waiting bind.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readHeartbeats } from "#app/modules/health/heartbeat.server.ts";
import { queueMessages } from "#app/modules/sms/send.server.ts";
import { startWorkerProcess, stopChildren } from "#tests/support/child-processes.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { TestSmsc } from "#tests/support/smpp-server.ts";
import { grantCredits } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const MESSAGES = 60;

let smsc: TestSmsc;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  smsc = await TestSmsc.start();
  for (let i = 0; i < 2; i++) {
    const env = {
      ...process.env,
      SMS_TRANSPORT: "smpp",
      SMPP_URL: smsc.url(),
      SMPP_BINDS: "2",
      SMPP_MAX_BINDS: "3",
      WORKER_NICE: "0",
    };
    workers.push(startWorkerProcess(env));
  }
}, 60_000);

afterAll(async () => {
  await stopChildren(workers);
  await smsc?.stop();
}, 60_000);

/** Bound sessions per worker, from their heartbeats. */
async function boundPerWorker(): Promise<number[]> {
  return [...(await readHeartbeats()).values()].map((beat) => beat.smpp?.bound ?? 0).sort();
}

it("opens SMPP_MAX_BINDS sessions across two workers, sends through them, and hands a stopped worker's slots on", async () => {
  await waitFor(async () => smsc.boundSessions === 3 && (await boundPerWorker()).join() === "1,2", {
    what: "three sessions bound, two on one worker and one on the other",
    timeout: 60_000,
    interval: 250,
  });

  const user = await createTestUser();
  await grantCredits(user.id, MESSAGES);
  await queueMessages(
    user.id,
    Array.from({ length: MESSAGES }, (_, i) => ({
      to: `+1202555${String(3000 + i).padStart(4, "0")}`,
      body: `Cap ${i}`,
    })),
  );
  await waitFor(() => smsc.counters.accepted >= MESSAGES, {
    what: "every message accepted by the SMSC",
    timeout: 60_000,
  });
  expect(smsc.counters.duplicates).toBe(0);
  // All that while the fourth bind kept waiting for a slot: three binds ever, three bound now.
  expect(smsc.counters.binds).toBe(3);
  expect(smsc.boundSessions).toBe(3);

  // The worker with two sessions stops (unbinding, its slots given back): the other's waiting bind takes one.
  const beats = await readHeartbeats();
  const pidWithTwo = Number(
    [...beats]
      .find(([, beat]) => beat.smpp?.bound === 2)![0]
      .split(":")
      .at(-1),
  );
  const stopping = workers.find((worker) => worker.pid === pidWithTwo)!;
  await stopChildren([stopping]);
  await waitFor(async () => (await boundPerWorker()).join() === "2", {
    what: "the remaining worker bound twice",
    timeout: 30_000,
    interval: 250,
  });
  expect(smsc.boundSessions).toBe(2);
});
