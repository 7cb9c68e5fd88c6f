// GET /metrics: refused without METRICS_TOKEN, and a message sent through the API counted through
// to delivered: the HTTP request, the message's status, the worker's submit and receipt counters
// (which reach the web through the worker's heartbeat in Redis), queues, Redis and SQLite.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { createTransport } from "#app/modules/sms/transports/index.server.ts";
import { liveUpstreamStates } from "#app/modules/sms/transports/upstream-stats.server.ts";
import { type LogContext, runWithLogContext } from "#app/utils/log.server.ts";
import { api } from "#server/api.ts";
import { metrics, startMetricsServer } from "#server/metrics.ts";
import { observeRequest } from "#server/request-metrics.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { apiCustomer } from "#tests/support/api.ts";
import { waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const TOKEN = "metrics-token-for-tests-0123456789";
let server: Server;
let workers: RunningWorkers;
let base: string;

beforeAll(async () => {
  process.env.METRICS_TOKEN = TOKEN;
  process.env.SIMULATOR_DLR_MS = "10";
  // The web's dispatch of the two extensions, with the request context server/http.ts gives.
  server = createServer((req, res) => {
    const context: LogContext = { requestId: "t", startedAt: performance.now() };
    void runWithLogContext(context, async () => {
      for (const extension of [metrics, api]) {
        if (await extension(req, res)) {
          observeRequest(context.route ?? "other", req.method ?? "GET", res.statusCode, 0.001);
          return;
        }
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workers = await startWorkers([
    // The worker's own transport: the environment's upstream (the simulator) behind the routed one.
    createSmsSendJob(() => createTransport(applyReceipts, async () => undefined)),
  ]);
});

afterAll(async () => {
  await workers?.close();
  server?.close();
});

const scrape = (token?: string) =>
  fetch(`${base}/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

/** The value of one sample, e.g. `sms_messages{direction="outbound",status="delivered"}`, summed over workers. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(match[3]);
  }
  return total;
}

it("refuses a scrape without the token and counts a message sent through the API until it is delivered", async () => {
  expect((await scrape()).status).toBe(401);
  expect((await scrape("wrong-token-wrong-token-wrong")).status).toBe(401);

  const customer = await apiCustomer(10);
  const sent = await fetch(`${base}/api/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${customer.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ to: "+12025550143", body: "Counted" }),
  });
  expect(sent.status).toBe(201);
  await waitForStatus(((await sent.json()) as { id: number }).id, "delivered");

  // The worker publishes its counters with its heartbeat, within a few seconds.
  const after = await waitFor(
    async () => {
      const text = await (await scrape(TOKEN)).text();
      return sample(text, "sms_receipts_total") > 0 ? text : null;
    },
    { what: "the worker's receipt in /metrics", timeout: 20_000, interval: 250 },
  );
  // This file's first scrape that collected: the message was delivered by then.
  expect(sample(after, "sms_messages", { direction: "outbound", status: "delivered" })).toBe(1);
  expect(sample(after, "sms_messages", { status: "queued" })).toBe(0);
  expect(sample(after, "sms_submitted_total")).toBe(1);
  expect(sample(after, "sms_receipts_total")).toBe(1);
  expect(sample(after, "sms_receipt_delay_seconds_count")).toBe(1);
  expect(
    sample(after, "http_request_duration_seconds_count", { route: "/api/v1/messages", method: "POST", status: "201" }),
  ).toBe(1);
  expect(sample(after, "sms_upstream_submits_total", { upstream: "env", answer: "accepted" })).toBe(1);
  expect(sample(after, "sms_upstream_submits_total", { upstream: "env", answer: "refused" })).toBe(0);
  expect(sample(after, "smpp_upstream_binds_up", { upstream: "env" })).toBe(1);
  expect(await liveUpstreamStates()).toMatchObject([
    { id: "env", name: "default", binds: 1, bindsUp: 1, accepted: 1, refused: 0, lastError: null },
  ]);
  expect(sample(after, "worker_up")).toBe(1);
  expect(sample(after, "redis_up")).toBe(1);
  expect(sample(after, "sqlite_up")).toBe(1);
  expect(after).toContain('queue_jobs{queue="sms-send",state="waiting"}');
  expect(after).toContain("nodejs_eventloop_lag_seconds");

  // A port of its own answers the same, and still asks for the token when one is set.
  const own = await startMetricsServer(0);
  const ownBase = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
  expect((await fetch(`${ownBase}/metrics`)).status).toBe(401);
  const ownScrape = await fetch(`${ownBase}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(ownScrape.status).toBe(200);
  expect(await ownScrape.text()).toContain("sms_receipts_total");
  own.close();
});
