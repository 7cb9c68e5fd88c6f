import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import client, { type Registry } from "prom-client";
import {
  type SmppBindStatus,
  type UpstreamState,
  type WorkerBeat,
  workerId,
} from "#app/modules/health/heartbeat.server.ts";
import { type GatewaySnapshot, gatewaySnapshot } from "#app/modules/health/metrics.server.ts";
import { RECEIPT_DELAY_BUCKETS } from "#app/modules/health/sms-counters.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { type WorkCounts, workCounts } from "#app/utils/work-counts.server.ts";
import { answer, type Extension } from "#server/http.ts";
import { histogramText, requestMetricsText } from "#server/request-metrics.ts";

let registry: Registry | undefined;
// The deployment's state, read once per scrape before the gauges collect from it.
let snapshot: GatewaySnapshot | undefined;

type Labelled = Record<string, string>;

/** A gauge whose values come from the scrape's snapshot. */
function gauge(
  register: Registry,
  name: string,
  help: string,
  labelNames: string[],
  values: (s: GatewaySnapshot) => [Labelled, number][],
) {
  return new client.Gauge({
    name,
    help,
    labelNames,
    registers: [register],
    collect() {
      this.reset();
      if (snapshot) for (const [labels, value] of values(snapshot)) this.set(labels, value);
    },
  });
}

/** A counter the worker processes keep (published with their heartbeats), by worker. */
function workerCounter(
  register: Registry,
  name: string,
  help: string,
  value: (beat: WorkerBeat) => number | undefined,
) {
  return new client.Counter({
    name,
    help,
    labelNames: ["worker"],
    registers: [register],
    collect() {
      this.reset();
      for (const [worker, beat] of snapshot?.workers ?? []) {
        const count = value(beat);
        if (count !== undefined) this.inc({ worker }, count);
      }
    },
  });
}

/** Each worker's upstreams, one sample per worker and upstream. */
function perUpstream(
  s: GatewaySnapshot,
  value: (state: UpstreamState) => number,
  labels: Labelled = {},
): [Labelled, number][] {
  return [...s.workers].flatMap(([worker, beat]) =>
    (beat.upstreams ?? []).map((state): [Labelled, number] => [
      { worker, upstream: state.id, ...labels },
      value(state),
    ]),
  );
}

/** A counter of each worker's upstreams (published with their heartbeats). */
function upstreamCounter(
  register: Registry,
  name: string,
  help: string,
  samples: (s: GatewaySnapshot) => [Labelled, number][],
  labelNames: string[] = [],
) {
  return new client.Counter({
    name,
    help,
    labelNames: ["worker", "upstream", ...labelNames],
    registers: [register],
    collect() {
      this.reset();
      if (snapshot) for (const [labels, value] of samples(snapshot)) this.inc(labels, value);
    },
  });
}

/** Per upstream: its binds (gauges) and what its submits met (counters), decision 138. */
function upstreamMetrics(register: Registry) {
  gauge(register, "smpp_upstream_binds", "Sessions a worker opens to an upstream.", ["worker", "upstream"], (s) =>
    perUpstream(s, (u) => u.binds),
  );
  gauge(register, "smpp_upstream_binds_up", "Sessions to an upstream bound now.", ["worker", "upstream"], (s) =>
    perUpstream(s, (u) => u.bindsUp),
  );
  upstreamCounter(
    register,
    "sms_upstream_submits_total",
    "submit_sm written to an upstream, by its answer: accepted, refused, or none (unanswered).",
    (s) => [
      ...perUpstream(s, (u) => u.accepted, { answer: "accepted" }),
      ...perUpstream(s, (u) => u.refused, { answer: "refused" }),
      ...perUpstream(s, (u) => u.unanswered, { answer: "unanswered" }),
    ],
    ["answer"],
  );
  upstreamCounter(register, "sms_upstream_unbound_total", "Messages that found no bind up to an upstream.", (s) =>
    perUpstream(s, (u) => u.unbound),
  );
  upstreamCounter(
    register,
    "sms_upstream_failovers_total",
    "Messages an upstream provably did not take, sent on to the next upstream of their route.",
    (s) => perUpstream(s, (u) => u.failedOver),
  );
}

const WORK_METRICS: [keyof WorkCounts, string, string][] = [
  ["statements", "work_sql_statements_total", "SQL statements run, BEGIN and COMMIT included."],
  ["commits", "work_sql_commits_total", "SQLite transactions committed."],
  [
    "busyRetries",
    "work_sql_busy_retries_total",
    "Write transactions begun again because another process held the lock.",
  ],
  ["rowsWritten", "work_sql_rows_written_total", "Rows inserted, updated or deleted (triggers' included)."],
  ["redisCommands", "work_redis_commands_total", "Commands sent to Redis."],
  ["logLines", "work_log_lines_total", "Log lines written."],
  ["logBytes", "work_log_bytes_total", "Bytes of log lines written."],
  ["exceptions", "work_exceptions_total", "Errors created that captured a stack trace."],
];

/** What each process's work cost (decision 113): this web process's, and each worker's from its heartbeat. */
function workCounters(register: Registry) {
  for (const [field, name, help] of WORK_METRICS) {
    new client.Counter({
      name,
      help,
      labelNames: ["process"],
      registers: [register],
      collect() {
        this.reset();
        this.inc({ process: "web" }, workCounts()[field]);
        for (const [worker, beat] of snapshot?.workers ?? []) {
          // A web running its workers itself (WORKER on) is counted once, as the web.
          if (beat.work && worker !== workerId) this.inc({ process: worker }, beat.work[field]);
        }
      },
    });
  }
}

function metricsRegistry(): Registry {
  if (registry) return registry;
  const register = new client.Registry();
  // Process metrics, the event-loop lag among them (nodejs_eventloop_lag_seconds).
  client.collectDefaultMetrics({ register });
  gauge(register, "sqlite_up", "1 when SQLite answers.", [], (s) => [[{}, s.sqliteUp ? 1 : 0]]);
  gauge(register, "redis_up", "1 when Redis answers.", [], (s) => [[{}, s.redisUp ? 1 : 0]]);
  gauge(
    register,
    "sms_messages",
    "Messages by direction and status (SQLite, counted at most every 30 s).",
    ["direction", "status"],
    (s) => s.messages.map((row) => [{ direction: "outbound", status: row.status }, row.messages]),
  );
  gauge(register, "queue_jobs", "Jobs per queue and state.", ["queue", "state"], (s) =>
    s.queues.map((row) => [{ queue: row.queue, state: row.state }, row.jobs]),
  );
  gauge(register, "worker_up", "Worker processes with a heartbeat in the last 30 s.", ["worker"], (s) =>
    [...s.workers.keys()].map((worker) => [{ worker }, 1]),
  );
  const smpp =
    (pick: (status: SmppBindStatus) => number) =>
    (s: GatewaySnapshot): [Labelled, number][] =>
      [...s.workers].filter(([, beat]) => beat.smpp).map(([worker, beat]) => [{ worker }, pick(beat.smpp!)]);
  gauge(
    register,
    "smpp_binds",
    "SMPP binds a worker opens.",
    ["worker"],
    smpp((b) => b.binds),
  );
  gauge(
    register,
    "smpp_binds_up",
    "SMPP binds bound now.",
    ["worker"],
    smpp((b) => b.bound),
  );
  gauge(
    register,
    "smpp_window_size",
    "submit_sm a worker may have in flight.",
    ["worker"],
    smpp((b) => b.window),
  );
  gauge(
    register,
    "smpp_window_in_flight",
    "submit_sm in flight now.",
    ["worker"],
    smpp((b) => b.inFlight),
  );
  workerCounter(register, "sms_submitted_total", "Messages the SMSC accepted.", (b) => b.counters?.submitted);
  workerCounter(register, "sms_failed_total", "Messages refused for good.", (b) => b.counters?.failed);
  workerCounter(
    register,
    "sms_retried_total",
    "Submits that met a temporary error and were retried.",
    (b) => b.counters?.retried,
  );
  workerCounter(register, "sms_receipts_total", "Delivery receipts applied.", (b) => b.counters?.receipts);
  upstreamMetrics(register);
  workCounters(register);
  return (registry = register);
}

function receiptDelayText(s: GatewaySnapshot): string {
  const series = [...s.workers]
    .filter(([, beat]) => beat.counters)
    .map(([worker, { counters }]) => ({
      labels: { worker },
      buckets: counters!.receiptDelayBuckets,
      sum: counters!.receiptDelaySum,
      count: counters!.receipts,
    }));
  return histogramText(
    "sms_receipt_delay_seconds",
    "From the SMSC's acceptance of a part to its first receipt.",
    RECEIPT_DELAY_BUCKETS,
    series,
  );
}

/** The Prometheus text: process, deployment, HTTP and worker metrics. */
async function metricsText(): Promise<string> {
  const register = metricsRegistry();
  snapshot = await gatewaySnapshot();
  const text = (await register.metrics()) + requestMetricsText() + receiptDelayText(snapshot);
  snapshot = undefined;
  return text;
}

function hasToken(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? "");
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function serveMetrics(req: IncomingMessage, res: Parameters<Extension>[1]) {
  const token = getEnv().METRICS_TOKEN;
  if (token && !hasToken(req, token)) {
    answer(res, 401, { "Content-Type": "text/plain", "WWW-Authenticate": "Bearer" }, "Unauthorized\n");
    return;
  }
  try {
    answer(res, 200, { "Content-Type": client.register.contentType, "Cache-Control": "no-store" }, await metricsText());
  } catch (error) {
    log("error", "metrics", "could not collect", error);
    answer(res, 500, { "Content-Type": "text/plain" }, "Internal Server Error\n");
  }
}

/**
 * GET /metrics on the web's port, with METRICS_TOKEN as a Bearer token. Without a token it is not
 * served there (a page 404): set METRICS_PORT for a port of its own instead.
 */
export const metrics: Extension = async (req, res) => {
  if (req.url !== "/metrics" || !getEnv().METRICS_TOKEN) return false;
  await serveMetrics(req, res);
  return true;
};

/** GET /metrics alone on METRICS_PORT (METRICS_TOKEN, when set, is asked there too). */
export async function startMetricsServer(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === "/metrics" && req.method === "GET") void serveMetrics(req, res);
    else answer(res, 404, { "Content-Type": "text/plain" }, "Not Found\n");
  });
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(port, getEnv().HOST, () => ready());
  });
  return server;
}
