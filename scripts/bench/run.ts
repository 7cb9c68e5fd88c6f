// npm run bench: the whole gateway on this machine, measured the way the issue asks.
//   npm run bench -- [--requests 20000] [--warm-up 22000] [--concurrency 64] [--workers 1] [--group 10000]
//                    [--history 1000000] [--settled 100000] [--orders 100000] [--page-requests 300] [--skip-pages]
//                    [--inbound-every 10] [--skip-webhooks] [--all-features [--feature-off <feature>]]
//                    [--postgres [--postgres-statements]] [--routes 200] [--failover] [--carrier-delay 20 --window 10]
//   npm run bench -- --attribution [--rounds 3] [--requests ...]   the table of CPU per message with
//                    each optional feature off in turn (scripts/bench/attribution.ts)
// Builds if needed, starts its own Redis, a loopback SMSC (its own process), the app in production
// mode (web with WORKER=off, plus worker processes; --workers 0: the worker inline in the web process,
// as npm start runs it) on a temp DATA_DIR, warms them up with --warm-up API messages (2,000 +
// --requests, as Kannel's harness does before its measured phase; 0: measure cold processes), then measures:
//   api_accept_per_s  POST /api/v1/messages accepted per second (Bearer key, concurrency 64), p50/p99
//   e2e_per_s         first accepted request -> last message marked delivered (receipt stored)
//   lost, duplicated  counted at the SMSC
//   inbound_per_s     inbound SMS stored per second while the API phase runs: the SMSC texts back
//                     once per --inbound-every accepted submits (0 = no inbound traffic); every one
//                     it got an ESME_ROK for must be in inbound_messages
//   webhooks          e2e with an endpoint subscribed to message.delivered against e2e without, the
//                     same load in phases ordered without, with, with, without; events/s, none lost
//   group_10k_s       group-send form post -> every member's message submitted
//   history_p99_ms    message history page with 1,000,000 messages in the database
//                     (--settled of them, all final, seeded before the first phase: a running gateway's
//                     tables are not empty, and PostgreSQL plans a prepared statement for the sizes it sees)
//   history_filters_p99_ms  the same history filtered (status, phone, text, dates, campaign, direction)
//   orders_p99_ms     admin order search with 100,000 orders
//   dashboard_p99_ms  the dashboard for 7, 30 and 90 days over the same 1,000,000 messages (90 days of them)
//   rss_mb            peak resident memory of the web and worker processes
//   work_per_msg      per accepted message and process (web, workers), in the API phase and the group
//                     send: SQL statements, commits, busy retries, rows written, Redis commands, log
//                     lines and bytes, errors created (decision 113; from GET /metrics)
// With --postgres the app runs on PostgreSQL (DATABASE_URL, decision 127): a private cluster of the
// bench's own (scripts/bench/postgres.ts), calibrated with pgbench before the app starts; the same
// phases, the same load, every query of the bench through the app's engine-neutral statements.
// --postgres-statements also prints the statements that took the server's time (pg_stat_statements).
// --routes N seeds a route table and a price list of N prefixes (and a "*" route), all to the
// environment's upstream at 1 credit per segment: every phase then pays the routing and pricing
// look-ups of a realistic table (issue 33's 5 % target, through bench:pairs --ours-options).
// --failover adds a last phase: a second SMSC as an admin's upstream, "*" routed to [environment's,
// second], the environment's SMSC killed midway (scripts/bench/failover.ts): 0 lost, 0 duplicated.
// --carrier-delay MS makes the SMSC answer each submit_sm after MS ms, as a distant carrier does: with
// --window 10 (the app's default; the bench otherwise opens it to 1000) one bind then carries at most
// 10 / MS submits per ms, and a second worker (--workers 2) should nearly double the e2e (issue 32's
// 1.8x target).
// and prints a table and one final JSON line.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { runMigrations } from "#app/db/migrate.server.ts";
import { storeNewApiKey } from "#app/modules/api-keys/keys.server.ts";
import { createUser, setUserTimeZone } from "#app/modules/auth/users.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { saveRoute } from "#app/modules/routing/routes.server.ts";
import { ENV_UPSTREAM, type RouteUpstream } from "#app/modules/routing/routing.ts";
import { prepareDataDir } from "#app/utils/env.server.ts";
import { freePort, startPrivateRedis } from "#server/redis-process.ts";
import { closeDatabase, sqlCount, sqlExec, sqlRow } from "#tests/support/database.ts";
import { waitFor } from "#tests/support/wait.ts";
import { type ProcessCounts, perMessage, workCountsNow } from "#tests/support/work-counts.ts";
import { appNodeFlags } from "../node-flags.ts";
import { buildIfStale } from "../build-if-stale.ts";
import { benchMessage, percentile, runLoad, sendRequest } from "./http-load.ts";
import { cpuSeconds } from "./process-cpu.ts";
import { seedGroupMembers, seedMillionMessages, seedOrders, seedRouteTable } from "./seed.ts";
import { seedHistoryFilters } from "./seed-history.ts";
import { prepareWebhookPhase, receivedEvents } from "./webhook-phase.ts";
import { runAttribution } from "./attribution.ts";
import { type Feature, FEATURES, groupText, isFeature, useFeatures } from "./features.ts";
import { type BenchPostgres, startBenchPostgres } from "./postgres.ts";
import { forkSmsc, type SmscStats } from "./smsc-client.ts";
import { FAILOVER_TEXT, type FailoverSetup, failoverText, prepareFailover, runFailoverPhase } from "./failover.ts";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "64" },
    workers: { type: "string", default: "1" },
    group: { type: "string", default: "10000" },
    history: { type: "string", default: "1000000" },
    settled: { type: "string", default: "100000" },
    orders: { type: "string", default: "100000" },
    "page-requests": { type: "string", default: "300" },
    "skip-pages": { type: "boolean", default: false },
    "keep-data": { type: "boolean", default: false },
    "inbound-every": { type: "string", default: "10" },
    "skip-webhooks": { type: "boolean", default: false },
    "all-features": { type: "boolean", default: false },
    "feature-off": { type: "string" },
    attribution: { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
    postgres: { type: "boolean", default: false },
    "postgres-statements": { type: "boolean", default: false },
    routes: { type: "string", default: "0" },
    failover: { type: "boolean", default: false },
    "carrier-delay": { type: "string", default: "0" },
    window: { type: "string", default: "1000" },
    "warm-up": { type: "string" },
  },
});
if (args.attribution) {
  await runAttribution(process.argv.slice(2), Number(args.rounds));
  process.exit(0);
}
const featureOff = args["feature-off"];
if (featureOff !== undefined && (!isFeature(featureOff) || !args["all-features"])) {
  console.error(`--feature-off (with --all-features): one of ${FEATURES.join(", ")}`);
  process.exit(2);
}
const off = featureOff as Feature | undefined;
const N = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const WORKERS = Number(args.workers);
/** --workers 0: one process, the shape npm start runs on one host (WORKER=inline); its worker still binds and beats. */
const INLINE = WORKERS === 0;
const WORKERS_RUNNING = Math.max(1, WORKERS);
const GROUP = Number(args.group);
const INBOUND_EVERY = Number(args["inbound-every"]);
const ROUTES = Number(args.routes);
/**
 * Messages sent and delivered before the measured phase, as Kannel's harness sends 2,000 and then a
 * phase of N without receipts before the one it measures (decision 148); 0: the first phase is measured
 * on cold processes, as the bench did before 2026-12-07.
 */
const WARM_UP = Number(args["warm-up"] ?? 2000 + N);
const log = (line: string) => console.error(`[bench] ${line}`);

if (!buildIfStale(log)) process.exit(1);

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-bench-"));
const children: ChildProcess[] = [];
process.on("exit", () => children.forEach((c) => c.exitCode === null && c.kill("SIGKILL")));

// --- Redis and the SMSC -----------------------------------------------------------------------
const appEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  SEED_DEMO: "0",
  LOG_LEVEL: "warn",
  WORKER: INLINE ? "inline" : "off",
  SESSION_SECRET: "bench-session-secret-of-32-characters",
  COOKIE_SECURE: "0",
  REGISTER_LIMIT_PER_HOUR: "100000",
  // The bench measures throughput, not the limits: one key sends every API request, and the queue
  // holds a whole run at once.
  API_RATE_LIMIT_PER_MINUTE: "100000000",
  API_ACCOUNT_RATE_LIMIT_PER_MINUTE: "100000000",
  REDIS_MAXMEMORY: "4gb",
  // The webhook phase's receiver listens on loopback.
  WEBHOOK_ALLOW_PRIVATE: "1",
  // Each process's work counts are read from GET /metrics.
  METRICS_TOKEN: "bench-metrics-token-0123456789",
};
// --- PostgreSQL (--postgres) ----------------------------------------------------------------------
let postgres: BenchPostgres | null = null;
let calibration: { tps: number; line: string } | null = null;
if (args.postgres) {
  postgres = await startBenchPostgres({ statements: args["postgres-statements"] });
  // A bench that fails half-way leaves no server behind (after the app's processes are killed).
  process.on("exit", postgres.stopNow);
  calibration = await postgres.calibrate();
  log(calibration.line);
  // PostgreSQL mode refuses to start without the secrets every host must share (decision 127).
  Object.assign(appEnv, { DATABASE_URL: postgres.url, API_KEY_SECRET: "bench-api-key-secret-of-32-characters" });
}

Object.assign(process.env, appEnv);
// The web process's port (this process reads its configuration above but serves nothing).
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
appEnv.PORT = process.env.PORT = String(port);
// Its memory cap given here: this process's configuration is read once, after REDIS_URL is known
// (PostgreSQL mode refuses a configuration without it).
const redis = await startPrivateRedis(dataDir, { maxMemory: appEnv.REDIS_MAXMEMORY });
appEnv.REDIS_URL = process.env.REDIS_URL = redis.url;

const smsc = await forkSmsc(
  {
    ...process.env,
    BENCH_INBOUND_EVERY: String(INBOUND_EVERY),
    BENCH_RESPONSE_DELAY_MS: args["carrier-delay"],
    // The failover phase counts what each SMSC took of its messages.
    ...(args.failover && { BENCH_KEEP_TEXTS: FAILOVER_TEXT }),
  },
  children,
);
const smscUrl = smsc.url;
const smscStats = () => smsc.stats();
Object.assign(appEnv, {
  SMS_TRANSPORT: "smpp",
  SMPP_URL: smscUrl,
  SMPP_TPS: "0",
  SMPP_WINDOW: args.window,
  SMPP_SOURCE_ADDR: "Bench",
});

// --- accounts and data the phases need (before the app starts) -------------------------------
prepareDataDir();
await runMigrations();
// Bulk seeding and counting go through the app's connection (either engine); its rows through its modules.
const password = "bench-password-1";
const apiUser = await createUser({ email: "api@bench.test", fullName: "API Bench", password });
await book({ userId: apiUser.id, kind: "grant", amount: N * 2, key: "bench-grant-api" });
const { key } = await storeNewApiKey(apiUser.id);
const groupUser = await createUser({ email: "group@bench.test", fullName: "Group Bench", password });
await book({ userId: groupUser.id, kind: "grant", amount: GROUP * 2, key: "bench-grant-group" });
const group = await createGroup(groupUser.id, { name: "Everyone", description: "The benchmark's members" });
await seedGroupMembers(groupUser.id, group.id, GROUP, Date.now());
// The webhook phase's baseline: the same load again just before it, from an account without endpoints.
const controlUser = await createUser({ email: "control@bench.test", fullName: "Control Bench", password });
await book({ userId: controlUser.id, kind: "grant", amount: N * 2, key: "bench-grant-control" });
const { key: controlKey } = await storeNewApiKey(controlUser.id);
const hooks = await prepareWebhookPhase(password, N * 3);
// The warm-up's messages go out from an account of their own, so no phase counts them.
const warmUser = await createUser({ email: "warm-up@bench.test", fullName: "Warm-up Bench", password });
await book({ userId: warmUser.id, kind: "grant", amount: Math.max(1, WARM_UP * 2), key: "bench-grant-warm-up" });
const { key: warmKey } = await storeNewApiKey(warmUser.id);
const historyUser = await createUser({ email: "history@bench.test", fullName: "History Bench", password });
// A zone with DST: the dashboard's figures include its local-day arithmetic.
await setUserTimeZone(historyUser.id, "America/New_York");
await createUser({ email: "admin@bench.test", fullName: "Admin Bench", password, role: "admin" });
// The history a running gateway has, before any phase: on an empty database PostgreSQL would plan
// each statement for empty tables (a sequential scan where a key look-up is due) and keep that plan
// until autovacuum's first pass, a minute or more into the load.
const HISTORY = Number(args.history);
const SETTLED = Math.min(Number(args.settled), HISTORY);
const settleDatabase = () =>
  sqlExec({ sqlite: "pragma wal_checkpoint(TRUNCATE); analyze", postgres: "vacuum analyze" });
if (SETTLED > 0) {
  await seedMillionMessages(historyUser.id, Date.now(), { count: SETTLED, settled: true });
  await settleDatabase();
}
if (args["all-features"]) {
  const featureEnv = await useFeatures([apiUser.id, controlUser.id, groupUser.id, warmUser.id], off, Date.now());
  for (const [name, value] of Object.entries(featureEnv)) {
    if (value === undefined) delete appEnv[name];
    else appEnv[name] = value;
  }
  log(`every optional feature in use${off ? `, but ${off} off` : ""}`);
}
// Issue 33: a route table and price list of ROUTES prefixes, and a second upstream for the failover phase.
if (ROUTES > 0) await seedRouteTable(ROUTES, Date.now());
const defaultRoute: RouteUpstream[] = [{ upstreamId: ENV_UPSTREAM.id, weight: null, costMicros: 0 }];
let failover: FailoverSetup | null = null;
if (args.failover) {
  // Forked with the bench's environment, before the app's own is added (as the first SMSC is).
  failover = await prepareFailover(process.env, children, password, N);
  defaultRoute.push({ upstreamId: failover.upstreamId, weight: null, costMicros: 0 });
}
if (ROUTES > 0 || failover) {
  await saveRoute(undefined, { prefix: "*", upstreams: defaultRoute });
  const upstreamsOfDefault = defaultRoute.map((u) => u.upstreamId).join(", ");
  log(`routes: ${ROUTES} prefixes to the environment's upstream, "*" to upstreams ${upstreamsOfDefault}`);
}

// --- the app ------------------------------------------------------------------------------------
// BENCH_PROFILE=dir writes a V8 CPU profile of each app process there (for finding hot spots);
// BENCH_APP_ARGS adds Node flags to the app processes' own (npm start's), for trying one.
const extraAppFlags = process.env.BENCH_APP_ARGS?.split(" ").filter(Boolean) ?? [];
const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", resolve(process.env.BENCH_PROFILE)] : [];
function start(entry: string, label: string): ChildProcess {
  const flags = [...appNodeFlags(), ...extraAppFlags, ...profile];
  // BENCH_APP_STDOUT=prefix keeps each app process's standard output (e.g. --trace-gc's) in prefix.<label>.
  const stdout = process.env.BENCH_APP_STDOUT
    ? openSync(`${process.env.BENCH_APP_STDOUT}.${label.replace(/ /g, "")}`, "w")
    : "ignore";
  const child = spawn(process.execPath, [...flags, "scripts/run.mjs", entry], {
    env: appEnv,
    stdio: ["ignore", stdout, "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!stopping) log(`${label} exited early (${code ?? signal})`);
  });
  children.push(child);
  return child;
}
let stopping = false;
const web = start("scripts/start.ts", "web");
const workers = Array.from({ length: WORKERS }, (_, i) => start("worker/index.ts", `worker ${i + 1}`));

await waitFor(
  () =>
    fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ),
  { timeout: 60_000, interval: 100, what: "the web server" },
);
await waitFor(async () => (await smscStats()).bound >= WORKERS_RUNNING, {
  timeout: 60_000,
  interval: 100,
  what: "the workers' SMPP binds",
});
log(`up: web pid ${web.pid}, ${INLINE ? "the worker inline" : `${WORKERS} worker(s)`}, SMSC ${smscUrl}`);

const count = (where: string, ...params: unknown[]) =>
  sqlCount(`select count(*) as n from sms_messages where ${where}`, ...params);

type SmscCounter = keyof SmscStats["counters"];
/**
 * Waits until `where` counts `needed` messages. The database is asked every 50 ms only once the SMSC's
 * `counter` has grown by `needed` since `from`, before that once a second (a message may end without
 * reaching it): a count every 50 ms all along would be the bench's own load on PostgreSQL's CPU, which
 * the gateway's figure includes.
 */
async function waitForMessages(
  what: string,
  [counter, from]: [SmscCounter, number],
  needed: number,
  where: string,
  ...params: unknown[]
): Promise<void> {
  let askedAt = 0;
  await waitFor(
    async () => {
      const onWire = (await smscStats()).counters[counter] - from >= needed;
      if (!onWire && Date.now() - askedAt < 1000) return false;
      askedAt = Date.now();
      return (await count(where, ...params)) >= needed;
    },
    { timeout: 300_000, interval: 50, what },
  );
}

const cpuTakers = () => ({
  web: cpuSeconds(web.pid),
  worker: workers.reduce((sum, w) => sum + cpuSeconds(w.pid), 0),
  redis: redis.pid ? cpuSeconds(redis.pid) : 0,
  smsc: cpuSeconds(smsc.process.pid),
  load: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  // PostgreSQL's own processes (the SQLite runs count the engine inside the web and worker).
  ...(postgres ? { postgres: postgres.cpuSeconds() } : {}),
});

/** CPU µs per message each process used since `before`, and the gateway's (web, workers, Redis, and PostgreSQL's server with --postgres). */
function cpuPerMessageSince(before: ReturnType<typeof cpuTakers>, messages: number) {
  const now = cpuTakers();
  const used = Object.fromEntries(
    Object.entries(now).map(([name, seconds]) => [
      name,
      Math.round(((seconds - before[name as keyof typeof before]!) * 1e6) / messages),
    ]),
  ) as Record<keyof typeof now, number>;
  return { ...used, gateway: used.web + used.worker + used.redis + (used.postgres ?? 0) };
}

/** Each process's work counts now (after a fresh heartbeat of every worker); none without metrics. */
const workNow = async () =>
  appEnv.METRICS_TOKEN ? await workCountsNow(base, appEnv.METRICS_TOKEN, WORKERS_RUNNING) : null;
const workPerMessage = async (before: Awaited<ReturnType<typeof workNow>>, messages: number) => {
  const after = await workNow();
  return before && after ? perMessage(before, after, messages) : null;
};

const requestAs = (apiKey: string) => (i: number) => sendRequest(port, apiKey, benchMessage(i));
/** Every inbound SMS the SMSC sent has its answer: the SMSC's counters then. */
const inboundAnswers = () =>
  waitFor(
    async () => {
      const { counters } = await smscStats();
      return counters.inboundAcked + counters.inboundRefused >= counters.inboundSent ? counters : null;
    },
    { timeout: 120_000, interval: 50, what: "every inbound SMS answered" },
  );

// --- 0. the warm-up: the measured phase's load, every message delivered ------------------------
// A Node process pays its first thousands of requests compiling their code (V8's optimizing compiler
// on a thread of its own) and filling its caches; a running gateway has paid it long before. Its
// figures are printed, not measured against anything.
let warmUpCpu: ReturnType<typeof cpuPerMessageSince> | null = null;
if (WARM_UP > 0) {
  const smscAtStart = await smscStats();
  const cpuAtStart = cpuTakers();
  log(`warm-up: ${WARM_UP} POST /api/v1/messages from an account of its own`);
  const warm = await runLoad({ port, connections: CONCURRENCY, total: WARM_UP, request: requestAs(warmKey) });
  const warmAccepted = warm.statuses.get(201) ?? 0;
  await waitForMessages(
    "every warm-up message delivered",
    ["receiptsAcked", smscAtStart.counters.receiptsAcked],
    warmAccepted,
    "user_id = ? and status = 'delivered'",
    warmUser.id,
  );
  await inboundAnswers();
  const cold = (warmUpCpu = cpuPerMessageSince(cpuAtStart, WARM_UP));
  log(
    `warm-up done: ${JSON.stringify(Object.fromEntries(warm.statuses))}; CPU µs per message (cold processes) ` +
      `web ${cold.web}, worker ${cold.worker}, Redis ${cold.redis}, gateway ${cold.gateway}, SMSC ${cold.smsc}, load ${cold.load}`,
  );
}

// --- 1. the API, and the full cycle to delivered --------------------------------------------
const smscBefore = await smscStats();
const workBefore = await workNow();
const cpuBefore = cpuTakers();
const apiStartedAt = Date.now();
const request = requestAs(key);
log(`API: ${N} POST /api/v1/messages at concurrency ${CONCURRENCY}`);
const load = await runLoad({ port, connections: CONCURRENCY, total: N, request });
const accepted = load.statuses.get(201) ?? 0;
const apiSeconds = (load.finishedAt - load.startedAt) / 1000;
const sortedLatency = Float64Array.from(load.latenciesMs).sort();
log(
  `API done in ${apiSeconds.toFixed(2)} s: ${JSON.stringify(Object.fromEntries(load.statuses))}; waiting for receipts`,
);
await waitForMessages(
  "every API message delivered",
  ["receiptsAcked", smscBefore.counters.receiptsAcked],
  accepted,
  "user_id = ? and status in ('delivered', 'failed', 'undelivered', 'rejected', 'expired', 'unknown')",
  apiUser.id,
);
const cpuPerMessage = cpuPerMessageSince(cpuBefore, N);
const span = (await sqlRow<{ first: number; last: number; delivered: number }>(
  `select min(created_at) as first, max(done_at) as last, sum(case when status = 'delivered' then 1 else 0 end) as delivered
   from sms_messages where user_id = ?`,
  apiUser.id,
))!;
// Every inbound SMS the SMSC sent has its answer, and each one answered ESME_ROK is stored (the
// warm-up's too); the rate is this phase's.
const inboundAnswered = await inboundAnswers();
const inbound = (await sqlRow<{ n: number; first: number | null; last: number | null }>(
  "select count(*) as n, min(received_at) as first, max(received_at) as last from inbound_messages where received_at >= ?",
  apiStartedAt,
))!;
const inboundLost = inboundAnswered.inboundAcked - (await sqlCount("select count(*) as n from inbound_messages"));
const workApi = await workPerMessage(workBefore, accepted);
const smscAfterApi = await smscStats();
const seenApi = smscAfterApi.counters.accepted - smscBefore.counters.accepted;
const duplicated = smscAfterApi.counters.duplicates - smscBefore.counters.duplicates;
const lost = accepted - (seenApi - duplicated);

// --- 1b. the same load four times more, in the order without, with, with, without webhooks ------
// Each phase runs a little faster than the one before (the processes go on warming; on cold ones a
// later phase alone ran 11-28 % faster than the first), while the machine drifts: the two kinds of
// phase are interleaved (ABBA) so warm-up and drift fall on both alike, and each kind is summed over its two.
type PhaseSpan = { first: number; last: number; delivered: number; lastId: number };
let lastPhaseId = 0;
async function deliveredPhase(userId: number, apiKey: string, what: string, total = N): Promise<PhaseSpan> {
  const cpuStart = cpuTakers();
  const receiptsBefore = (await smscStats()).counters.receiptsAcked;
  const afterId = lastPhaseId;
  const phaseLoad = await runLoad({ port, connections: CONCURRENCY, total, request: requestAs(apiKey) });
  const phaseAccepted = phaseLoad.statuses.get(201) ?? 0;
  await waitForMessages(
    `every ${what} message delivered`,
    ["receiptsAcked", receiptsBefore],
    phaseAccepted,
    "user_id = ? and id > ? and status = 'delivered'",
    userId,
    afterId,
  );
  const cpuEnd = cpuTakers();
  const cpu = Object.entries(cpuEnd).map(([name, seconds]) => {
    const used = seconds - cpuStart[name as keyof typeof cpuStart]!;
    return `${name} ${Math.round((used * 1e6) / total)}`;
  });
  const phase = (await sqlRow<PhaseSpan>(
    `select min(created_at) as first, max(done_at) as last, count(*) as delivered, max(id) as lastId
     from sms_messages where user_id = ? and id > ? and status = 'delivered'`,
    userId,
    afterId,
  ))!;
  lastPhaseId = Math.max(lastPhaseId, phase.lastId);
  log(`${what}: e2e ${perSecond([phase])}/s; CPU µs per message ${cpu.join(", ")} (until the last SMS delivered)`);
  return phase;
}
/** Messages delivered per second over the phases' summed spans (first accepted -> last delivered each). */
const perSecond = (phases: { first: number; last: number; delivered: number }[]) =>
  Math.round(
    phases.reduce((sum, p) => sum + p.delivered, 0) / (phases.reduce((sum, p) => sum + (p.last - p.first), 0) / 1000),
  );
const withoutPhase = () => deliveredPhase(controlUser.id, controlKey, "without webhooks");
async function withPhase(total = N) {
  const messagesBefore = receivedEvents(hooks).messages;
  const phase = await deliveredPhase(hooks.userId, hooks.key, "with webhooks", total);
  // Every event of this phase in before the next phase starts: their POSTs come after the burst.
  await waitFor(() => receivedEvents(hooks).messages >= messagesBefore + phase.delivered, {
    timeout: 300_000,
    interval: 50,
    what: "a message.delivered webhook for every delivered message",
  });
  const firstEventAt = (await sqlRow<{ at: number }>(
    "select min(created_at) as at from webhook_events where created_at >= ?",
    phase.first,
  ))!.at;
  return { ...phase, events: receivedEvents(hooks, phase.first, phase.last), firstEventAt };
}
async function measureWebhooks() {
  log(
    `webhooks: ${N} POST /api/v1/messages four times more: without, with, with, without webhooks (loopback receiver)`,
  );
  // The first phase warmed the sending code; the webhook code has not run yet: a short burst warms it.
  const warmUp = await withPhase(N / 10);
  const basePhases = [await withoutPhase()];
  const hookPhases = [await withPhase(), await withPhase()];
  basePhases.push(await withoutPhase());
  const allEvents = receivedEvents(hooks);
  const hookDelivered = hookPhases.reduce((sum, p) => sum + p.delivered, warmUp.delivered);
  return {
    e2e_per_s: perSecond(hookPhases),
    baseline_e2e_per_s: perSecond(basePhases),
    phases_e2e_per_s: [basePhases[0], ...hookPhases, basePhases[1]].map((p) => perSecond([p])),
    // Receipt stored to webhook received included: first accepted request -> last event received.
    e2e_with_events_per_s: perSecond(hookPhases.map((p) => ({ ...p, last: p.events.lastAt }))),
    // One event per delivered message (any more are counted as redundant below).
    events_per_s: perSecond(hookPhases.map((p) => ({ ...p, first: p.firstEventAt, last: p.events.lastAt }))),
    events: allEvents.events,
    // Pushed while the phase's SMS were still being delivered: the rest waited for sending (decision 100).
    events_during_sending: hookPhases.reduce((sum, p) => sum + p.events.early, 0),
    warm_up_messages: warmUp.delivered,
    unverified: allEvents.unverified,
    lost: hookDelivered - allEvents.messages,
    redundant: allEvents.events - allEvents.messages,
  };
}
const webhooks = args["skip-webhooks"] ? null : await measureWebhooks();
await hooks.receiver.stop();

// --- 2. a group send of 10,000 members through the screen's form ------------------------------
async function login(email: string): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email, password, redirectTo: "/" }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (!cookie) throw new Error(`login as ${email} failed (${response.status})`);
  return cookie.split(";")[0];
}
const groupCookie = await login("group@bench.test");
const workBeforeGroup = await workNow();
const cpuBeforeGroup = cpuTakers();
const acceptedBeforeGroup = (await smscStats()).counters.accepted;
log(`group send to ${GROUP} members`);
const groupStarted = Date.now();
const groupMessage = args["all-features"] ? groupText(off) : "Group benchmark: hello everyone";
const postGroupSend = (fields: Record<string, string> = {}) =>
  fetch(`${base}/sms/accountGroups?panel=send&id=${group.id}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: groupCookie },
    body: new URLSearchParams({ intent: "send", id: String(group.id), message: groupMessage, ...fields }),
  });
let posted = await postGroupSend();
// A text with merge fields is quoted first (the total of the personalised messages) and sent once confirmed.
const quoted = posted.status === 200 ? /name="quoted" value="([^"]+)"/.exec(await posted.text())?.[1] : undefined;
if (quoted) posted = await postGroupSend({ quoted });
if (posted.status !== 302) throw new Error(`group send post answered ${posted.status}`);
const groupSend = await waitFor(
  () => sqlRow<{ id: number }>("select id from group_sends where user_id = ? order by id desc limit 1", groupUser.id),
  { timeout: 120_000, interval: 50, what: "the group send row" },
);
await waitForMessages(
  "every member's message submitted",
  ["accepted", acceptedBeforeGroup],
  GROUP,
  "group_send_id = ? and status in ('submitted', 'delivered')",
  groupSend.id,
);
const groupDone = (await sqlRow<{ last: number }>(
  "select max(submitted_at) as last from sms_messages where group_send_id = ?",
  groupSend.id,
))!.last;
const groupSeconds = (groupDone - groupStarted) / 1000;
const cpuGroup = cpuPerMessageSince(cpuBeforeGroup, GROUP);
const workGroup = await workPerMessage(workBeforeGroup, GROUP);

// --- 3. pages over a big database ---------------------------------------------------------------
let historyP99: number | null = null;
let ordersP99: number | null = null;
async function timePages(cookie: string, paths: string[]): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (const path of paths) {
    const began = performance.now();
    const response = await fetch(`${base}${path}`, { headers: { Cookie: cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    times.push(performance.now() - began);
  }
  // The slowest requests name the query to look at when a p99 is over its target.
  const slowest = paths
    .map((path, i) => ({ path, ms: times[i] }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 4);
  log(`slowest: ${slowest.map(({ path, ms }) => `${ms.toFixed(1)} ms ${path}`).join(", ")}`);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}
let historyTimes = { p50: 0, p99: 0 };
let filtersTimes: { p50: number; p99: number } | null = null;
let ordersTimes = { p50: 0, p99: 0 };
const dashboardTimes: { days: number; p50: number; p99: number }[] = [];
if (!args["skip-pages"]) {
  const pageRequests = Number(args["page-requests"]);
  log(`seeding ${HISTORY - SETTLED} more messages and ${args.orders} orders`);
  const seededAt = Date.now();
  if (HISTORY > SETTLED) await seedMillionMessages(historyUser.id, seededAt, { count: HISTORY - SETTLED });
  await seedOrders([historyUser.id, apiUser.id, groupUser.id], Number(args.orders), seededAt);
  const filterPaths = await seedHistoryFilters(historyUser.id, seededAt);
  await settleDatabase();
  log(`seeded in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
  // The seeding blocked this process: let fetch see the keep-alive sockets the server closed meanwhile.
  await new Promise((resume) => setTimeout(resume, 200));

  const historyCookie = await login("history@bench.test");
  const historyPaths = Array.from(
    { length: pageRequests },
    (_, i) => `/sms/messageHistory?page=${1 + ((i * 37) % 1000)}`,
  );
  await timePages(historyCookie, historyPaths.slice(0, 20));
  historyTimes = await timePages(historyCookie, historyPaths);
  historyP99 = historyTimes.p99;
  const filteredPaths = Array.from({ length: pageRequests }, (_, i) => filterPaths[(i * 7) % filterPaths.length]);
  await timePages(historyCookie, filteredPaths.slice(0, 20));
  filtersTimes = await timePages(historyCookie, filteredPaths);

  const adminCookie = await login("admin@bench.test");
  const searches = [
    "",
    "q=Lovelace",
    "q=grace.hopper",
    "q=5550123",
    "status=Cancelled",
    "q=Turing&status=Completed",
    "q=Knuth 42",
  ];
  const sizes = [5, 10, 15, 20];
  const orderPaths = Array.from(
    { length: pageRequests },
    (_, i) =>
      `/order/allOrders?${searches[i % searches.length]}&size=${sizes[i % sizes.length]}&page=${1 + ((i * 13) % 50)}`,
  );
  await timePages(adminCookie, orderPaths.slice(0, 20));
  ordersTimes = await timePages(adminCookie, orderPaths);
  ordersP99 = ordersTimes.p99;

  for (const days of [7, 30, 90]) {
    const paths = Array<string>(pageRequests).fill(`/sms/dashboard?days=${days}`);
    await timePages(historyCookie, paths.slice(0, 20));
    dashboardTimes.push({ days, ...(await timePages(historyCookie, paths)) });
  }
}

// --- 3b. failover: the environment's SMSC killed midway (last: that SMSC is gone after it) ------
const failoverResult = failover
  ? await runFailoverPhase({ port, connections: CONCURRENCY, total: N, first: smsc, setup: failover })
  : null;
if (failoverResult) log(`failover: ${JSON.stringify(failoverResult)}`);

// --- 4. memory -----------------------------------------------------------------------------------
const peakRssMb = (pid: number | undefined) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
};
const rss = { web: peakRssMb(web.pid), workers: workers.map((w) => peakRssMb(w.pid)) };

// --- report ----------------------------------------------------------------------------------------
/** Statements and commits per delivered message of the API phase, web and workers (the engines' cost in SQL). */
const sqlPerDelivered =
  workApi && span.delivered > 0
    ? Object.fromEntries(
        (["web", "worker"] as const).map((side) => [
          side,
          {
            statements: Number(((workApi[side].statements * accepted) / span.delivered).toFixed(2)),
            commits: Number(((workApi[side].commits * accepted) / span.delivered).toFixed(3)),
          },
        ]),
      )
    : null;
const result = {
  engine: args.postgres ? "postgres" : "sqlite",
  pgbench_select_tps: calibration?.tps ?? null,
  api_accept_per_s: Math.round(accepted / apiSeconds),
  api_p50_ms: Number(percentile(sortedLatency, 50).toFixed(1)),
  api_p99_ms: Number(percentile(sortedLatency, 99).toFixed(1)),
  api_statuses: Object.fromEntries(load.statuses),
  e2e_per_s: Math.round(span.delivered / ((span.last - span.first) / 1000)),
  delivered: span.delivered,
  lost,
  duplicated,
  inbound_per_s:
    inbound.n > 1 && inbound.last! > inbound.first!
      ? Math.round(inbound.n / ((inbound.last! - inbound.first!) / 1000))
      : 0,
  inbound_stored: inbound.n,
  inbound_refused: inboundAnswered.inboundRefused,
  inbound_lost: inboundLost,
  inbound_every: INBOUND_EVERY,
  webhooks,
  group_10k_s: Number(groupSeconds.toFixed(2)),
  history_p99_ms: historyP99 === null ? null : Number(historyP99.toFixed(1)),
  history_filters_p99_ms: filtersTimes === null ? null : Number(filtersTimes.p99.toFixed(1)),
  orders_p99_ms: ordersP99 === null ? null : Number(ordersP99.toFixed(1)),
  dashboard_p99_ms:
    dashboardTimes.length === 0 ? null : Number(Math.max(...dashboardTimes.map((t) => t.p99)).toFixed(1)),
  cpu_us_per_msg: cpuPerMessage,
  cpu_us_per_msg_group: cpuGroup,
  api_warm_up: { messages: WARM_UP, cpu_us_per_msg: warmUpCpu },
  feature_off: args["all-features"] ? (off ?? null) : undefined,
  work_per_msg: { api: workApi, group: workGroup },
  sql_per_delivered: sqlPerDelivered,
  rss_mb: Math.max(rss.web, ...rss.workers),
  rss_web_mb: rss.web,
  rss_worker_mb: rss.workers,
  requests: N,
  concurrency: CONCURRENCY,
  workers: WORKERS,
  ...(ROUTES > 0 && { routes: ROUTES }),
  ...(Number(args["carrier-delay"]) > 0 && {
    carrier_delay_ms: Number(args["carrier-delay"]),
    window: Number(args.window),
  }),
  ...(failoverResult && { failover: failoverResult }),
};
/** One process's counts per message, as the table shows them. */
function workText(work: ProcessCounts | null): string {
  if (!work) return "not measured (METRICS_TOKEN unset)";
  const one = (name: string, c: ProcessCounts["web"]) =>
    `${name}: ${c.statements.toFixed(2)} statements, ${c.commits.toFixed(3)} commits (${c.busyRetries.toFixed(3)} busy retries), ` +
    `${c.rowsWritten.toFixed(2)} rows written, ${c.redisCommands.toFixed(3)} Redis commands, ` +
    `${c.logLines.toFixed(3)} log lines (${c.logBytes.toFixed(1)} bytes), ${c.exceptions.toFixed(3)} errors`;
  return `${one("web", work.web)}; ${one("worker", work.worker)}`;
}
const rows: [string, string, string][] = [
  ["engine", args.postgres ? `PostgreSQL (private cluster); ${calibration!.line}` : "SQLite", ""],
  [
    "api_accept_per_s",
    `${result.api_accept_per_s}/s (p50 ${result.api_p50_ms} ms, p99 ${result.api_p99_ms} ms)`,
    ">= 6000/s",
  ],
  ["e2e_per_s", `${result.e2e_per_s}/s (${result.delivered} delivered)`, ">= 4200/s"],
  ["lost / duplicated", `${lost} / ${duplicated}`, "0 / 0"],
  [
    "inbound_per_s",
    INBOUND_EVERY > 0
      ? `${result.inbound_per_s}/s (${inbound.n} stored, 1 per ${INBOUND_EVERY} sends; ${inboundAnswered.inboundRefused} refused, ${inboundLost} acknowledged but not stored)`
      : "no inbound traffic (--inbound-every 0)",
    "every inbound stored",
  ],
  [
    "webhooks (message.delivered)",
    webhooks === null
      ? "skipped"
      : `e2e ${webhooks.e2e_per_s}/s = ${Math.round((100 * webhooks.e2e_per_s) / webhooks.baseline_e2e_per_s)} % of ` +
        `e2e without, interleaved (${webhooks.baseline_e2e_per_s}/s; phases ${webhooks.phases_e2e_per_s.join(", ")}/s; ` +
        `${Math.round((100 * webhooks.e2e_per_s) / result.e2e_per_s)} % of the first phase) ` +
        `(${webhooks.e2e_with_events_per_s}/s to the last event received); ${webhooks.events_per_s} events/s, ` +
        `${webhooks.events_during_sending} of them pushed before the last SMS was delivered; ` +
        `${webhooks.lost} lost, ${webhooks.unverified} unverified, ${webhooks.redundant} sent twice`,
    ">= 85 % of e2e, 0 lost",
  ],
  ["group_10k_s", `${result.group_10k_s} s (${GROUP} members)`, "< 3 s"],
  [
    "history_p99_ms",
    historyP99 === null ? "skipped" : `${result.history_p99_ms} ms (p50 ${historyTimes.p50.toFixed(1)})`,
    "< 50 ms",
  ],
  [
    "history_filters_p99_ms",
    filtersTimes === null ? "skipped" : `${result.history_filters_p99_ms} ms (p50 ${filtersTimes.p50.toFixed(1)})`,
    "< 50 ms",
  ],
  [
    "orders_p99_ms",
    ordersP99 === null ? "skipped" : `${result.orders_p99_ms} ms (p50 ${ordersTimes.p50.toFixed(1)})`,
    "< 50 ms",
  ],
  [
    "dashboard_p99_ms",
    dashboardTimes.length === 0
      ? "skipped"
      : dashboardTimes.map((t) => `${t.days} d ${t.p99.toFixed(1)} ms (p50 ${t.p50.toFixed(1)})`).join(", "),
    "< 50 ms",
  ],
  [
    "CPU per message (API phase)",
    `web ${cpuPerMessage.web} µs, worker ${cpuPerMessage.worker} µs, Redis ${cpuPerMessage.redis} µs` +
      `${cpuPerMessage.postgres === undefined ? "" : `, PostgreSQL ${cpuPerMessage.postgres} µs`}; ` +
      `test SMSC ${cpuPerMessage.smsc} µs, load generator ${cpuPerMessage.load} µs`,
    "",
  ],
  [
    "CPU per message (warm-up)",
    warmUpCpu === null
      ? "no warm-up (--warm-up 0): the API phase above ran on cold processes"
      : `web ${warmUpCpu.web} µs, worker ${warmUpCpu.worker} µs, Redis ${warmUpCpu.redis} µs` +
        `${warmUpCpu.postgres === undefined ? "" : `, PostgreSQL ${warmUpCpu.postgres} µs`}; ` +
        `test SMSC ${warmUpCpu.smsc} µs, load generator ${warmUpCpu.load} µs (${WARM_UP} messages on cold processes, before the API phase)`,
    "",
  ],
  [
    "CPU per message (group send)",
    `web ${cpuGroup.web} µs, worker ${cpuGroup.worker} µs, Redis ${cpuGroup.redis} µs` +
      `${cpuGroup.postgres === undefined ? "" : `, PostgreSQL ${cpuGroup.postgres} µs`} (to every member's message submitted)`,
    "",
  ],
  [
    "SQL per delivered message (API phase)",
    sqlPerDelivered
      ? (["web", "worker"] as const)
          .map(
            (side) =>
              `${side} ${sqlPerDelivered[side].statements} statements, ${sqlPerDelivered[side].commits} commits`,
          )
          .join("; ")
      : "not measured (METRICS_TOKEN unset)",
    "",
  ],
  ["work per message (API phase)", workText(workApi), "decision 113"],
  ["work per message (group send)", workText(workGroup), "decision 113"],
  [
    "rss_mb (peak)",
    INLINE ? `web with the worker inline ${rss.web} MB` : `web ${rss.web} MB, worker ${rss.workers.join(", ")} MB`,
    "< 300 MB each",
  ],
];
if (failoverResult && failover)
  rows.push([
    "failover (first SMSC killed midway)",
    failoverText(failoverResult, failover.upstreamId),
    "0 lost / 0 duplicated",
  ]);
console.log("\n| metric | measured | target |\n|---|---|---|");
for (const [name, measured, target] of rows) console.log(`| ${name} | ${measured} | ${target} |`);

for (const line of (await postgres?.topStatements(15)) ?? []) log(`PostgreSQL time: ${line}`);
stopping = true;
for (const child of [...workers, web]) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
smsc.stop();
failover?.second.stop();
await redis.stop();
await closeDatabase();
await postgres?.stop();
if (!args["keep-data"]) rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify(result));
process.exit(0);
