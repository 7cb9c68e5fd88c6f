// Benchmark of POST /api/v1/messages against the built app (`npx react-router build` first):
//   npm run bench:api -- [--requests 20000] [--concurrency 64] [--worker inline|process|none]
// Starts the production server on a fresh DATA_DIR and a private Redis, makes a customer with
// credits and an API key, fires the requests over keep-alive connections and prints the rate of
// accepted (201) messages and the latency percentiles.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "64" },
    worker: { type: "string", default: "process" },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const workerMode = values.worker as "inline" | "process" | "none";

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-bench-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const serverEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  SEED_DEMO: "0",
  LOG_LEVEL: "warn",
  WORKER: workerMode === "inline" ? "inline" : "off",
  SIMULATOR_DLR_MS: "1000",
};
Object.assign(process.env, serverEnv);

// The bench owns Redis, so it is stopped even when a server has to be killed.
const { startPrivateRedis } = await import("../../server/redis-process.ts");
const redis = await startPrivateRedis(dataDir);
process.env.REDIS_URL = serverEnv.REDIS_URL = redis.url;

const { runMigrations } = await import("../../app/db/migrate.server.ts");
const { createUser } = await import("../../app/modules/auth/users.server.ts");
const { book } = await import("../../app/modules/credits/ledger.server.ts");
const { storeNewApiKey } = await import("../../app/modules/api/keys.server.ts");
runMigrations();
const user = await createUser({ email: "bench@example.com", fullName: "Bench", password: "bench-password-1" });
book({ userId: user.id, kind: "grant", amount: total * 2, key: "bench-grant" });
const { key } = storeNewApiKey(user.id);

const children: ChildProcess[] = [];
const start = (entry: string) => {
  const child = spawn(process.execPath, ["scripts/run.mjs", entry], { env: serverEnv, stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  return child;
};
// Newest first: the worker must finish while the server's private Redis is still there.
async function stop() {
  for (const child of children.reverse()) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
process.on("exit", () => children.forEach((child) => child.exitCode === null && child.kill("SIGKILL")));

start("scripts/start.ts");
for (let i = 0; ; i++) {
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
  if (ok) break;
  if (i > 600) throw new Error("the server did not start");
  await new Promise((r) => setTimeout(r, 100));
}
if (workerMode === "process") start("worker/index.ts");

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const statuses = new Map<number, number>();
const latencies = new Float64Array(total);

function send(i: number): Promise<void> {
  const body = JSON.stringify({ to: "+12025550123", body: `Benchmark message ${i}` });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/v1/messages",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          latencies[i] = performance.now() - started;
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          resolve();
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let next = 0;
const began = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) await send(next++);
  }),
);
const seconds = (performance.now() - began) / 1000;
const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
const accepted = statuses.get(201) ?? 0;
console.log(
  JSON.stringify({
    requests: total,
    concurrency,
    worker: workerMode,
    seconds: Number(seconds.toFixed(2)),
    acceptedPerSecond: Math.round(accepted / seconds),
    statuses: Object.fromEntries(statuses),
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: sorted[sorted.length - 1].toFixed(1) },
  }),
);
agent.destroy();
await stop();
await redis.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
