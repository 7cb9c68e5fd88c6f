// How long the shared Redis connection's commands take under producer load, to choose
// REDIS_COMMAND_TIMEOUT_MS (docs/decisions/080-redis-command-timeouts.md). Starts a private Redis
// (append-only, as npm start runs it) on a temp DATA_DIR and times every command on getRedis()
// while 64 callers add send jobs one by one, batches of 5,000 messages go in as 25 jobs, schedules
// are armed and disarmed, and rate limits count.
//   node scripts/run.mjs scripts/bench/redis-command-latency.ts [--seconds 20]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Command } from "ioredis";

const { values: args } = parseArgs({ options: { seconds: { type: "string", default: "20" } } });
const dataDir = mkdtempSync(join(tmpdir(), "smsgw-redis-latency-"));
process.env.DATA_DIR = dataDir;
process.env.QUEUE_PREFIX = "latency";
process.env.LOG_LEVEL = "error";
// Measured without a timeout: the point is the distribution it must stay clear of.
process.env.REDIS_COMMAND_TIMEOUT_MS = "0";

const { startPrivateRedis } = await import("#server/redis-process.ts");
const { getRedis, closeRedis } = await import("#app/queue/redis.server.ts");
const { closeQueues } = await import("#app/queue/queues.server.ts");
const { addSmsSendJobs } = await import("#app/queue/jobs/sms-send.server.ts");
const { armSchedule, disarmSchedule } = await import("#app/modules/scheduling/job-schedulers.server.ts");
const { hit } = await import("#app/utils/rate-limit.server.ts");

const redis = await startPrivateRedis(dataDir);
process.env.REDIS_URL = redis.url;

const durations: Record<string, number[]> = {};
const connection = getRedis();
const send = connection.sendCommand.bind(connection);
connection.sendCommand = (command: Command, stream?: Parameters<typeof send>[1]) => {
  const started = performance.now();
  const name = command.name === "evalsha" ? `evalsha:${String(command.args[0]).slice(0, 8)}` : command.name;
  command.promise.then(
    () => (durations[name] ??= []).push(performance.now() - started),
    () => {},
  );
  return send(command, stream);
};

const until = Date.now() + Number(args.seconds) * 1000;
let nextId = 1;
const loop = async (step: () => Promise<unknown>) => {
  while (Date.now() < until) await step();
};
const rule = { repeat: "daily" as const, firstSendAt: Date.now() + 3_600_000, timeZone: "UTC", endsAt: null };
await Promise.all([
  ...Array.from({ length: 64 }, () => loop(() => addSmsSendJobs([nextId++]))),
  loop(() => addSmsSendJobs(Array.from({ length: 5_000 }, () => nextId++))),
  loop(async () => {
    const id = nextId++;
    await armSchedule(id, rule).catch(() => {});
    await disarmSchedule(id);
  }),
  ...Array.from({ length: 16 }, () => loop(() => hit({ name: "latency", limit: 1e9, windowMs: 60_000 }, "one"))),
]);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const rows = Object.entries(durations).map(([name, list]) => {
  const sorted = list.sort((a, b) => a - b);
  return {
    command: name,
    count: sorted.length,
    p50_ms: +percentile(sorted, 0.5).toFixed(1),
    p99_ms: +percentile(sorted, 0.99).toFixed(1),
    p999_ms: +percentile(sorted, 0.999).toFixed(1),
    max_ms: +sorted[sorted.length - 1].toFixed(1),
  };
});
console.table(rows.sort((a, b) => b.max_ms - a.max_ms));
const all = Object.values(durations)
  .flat()
  .sort((a, b) => a - b);
console.log(
  JSON.stringify({
    commands: all.length,
    p99_ms: +percentile(all, 0.99).toFixed(1),
    p999_ms: +percentile(all, 0.999).toFixed(1),
    max_ms: +all[all.length - 1].toFixed(1),
  }),
);
await closeQueues();
await closeRedis();
await redis.stop();
rmSync(dataDir, { recursive: true, force: true });
