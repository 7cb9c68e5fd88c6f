// GET /healthz answers while the process runs; GET /readyz says whether the deployment can take
// work: SQLite with its migrations, Redis, a worker's heartbeat and, with SMPP configured, a bind up.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkReadiness } from "#app/modules/health/readiness.server.ts";
import { HEARTBEAT_FRESH_MS } from "#app/modules/health/heartbeat.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { health } from "#server/health.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { TestSmsc } from "#tests/support/smpp-server.ts";
import { smppTransportTo } from "#tests/support/smpp-gateway.ts";
import { waitFor } from "#tests/support/wait.ts";

let smsc: TestSmsc;
let server: Server;
let workers: RunningWorkers | undefined;

async function probe(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  return { status: response.status, body: await response.json() };
}

const startSmppWorker = () => startWorkers([createSmsSendJob(() => smppTransportTo(smsc))]);

beforeAll(async () => {
  smsc = await TestSmsc.start();
  process.env.SMS_TRANSPORT = "smpp";
  process.env.SMPP_URL = smsc.url();
  server = createServer((req, res) => void health(req, res));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
});

afterAll(async () => {
  await workers?.close();
  await smsc?.stop();
  server?.close();
});

// The worker publishes its bind state with its heartbeat, within a second of a change.
const BEAT_WAIT = { timeout: 20_000, interval: 100 };

it("is ready with a worker bound to the SMSC, and says why not when the SMSC refuses the bind or the only worker stops", async () => {
  expect(getEnv().SMS_TRANSPORT).toBe("smpp");
  expect(await probe("/readyz")).toEqual({
    status: 503,
    body: { status: "unavailable", reasons: ["no worker heartbeat in the last 30 s"] },
  });

  workers = await startSmppWorker();
  await waitFor(async () => (await probe("/readyz")).status === 200, { ...BEAT_WAIT, what: "/readyz to say ready" });
  expect((await probe("/readyz")).body).toEqual({ status: "ready" });

  // The SMSC drops the link and refuses every bind since (e.g. the password changed on its side).
  smsc.options.password = "changed-at-the-smsc";
  smsc.dropAll();
  await waitFor(async () => (await probe("/readyz")).status === 503, {
    ...BEAT_WAIT,
    what: "/readyz to say not ready",
  });
  expect((await probe("/readyz")).body).toEqual({ status: "unavailable", reasons: ["no SMPP bind up"] });
  expect(smsc.counters.bindFailures).toBeGreaterThan(0);
  // The process still answers: nothing to restart.
  expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" } });

  smsc.options.password = "secret";
  await waitFor(async () => (await probe("/readyz")).status === 200, { ...BEAT_WAIT, what: "/readyz ready again" });

  // A worker that stops says goodbye: not ready at once, without waiting for its beat to age.
  await workers.close();
  workers = undefined;
  expect(await probe("/readyz")).toEqual({
    status: 503,
    body: { status: "unavailable", reasons: ["no worker heartbeat in the last 30 s"] },
  });

  workers = await startSmppWorker();
  await waitFor(async () => (await probe("/readyz")).status === 200, { ...BEAT_WAIT, what: "ready with a new worker" });
  // A worker killed without a goodbye stops counting once its last beat is older than 30 s.
  const later = await checkReadiness(Date.now() + HEARTBEAT_FRESH_MS + 5_000);
  expect(later.reasons).toEqual(["no worker heartbeat in the last 30 s"]);
});
