// `npm run bench -- --postgres`: the bench's own PostgreSQL, a private cluster as the tests start one
// (tests/support/postgres-cluster.ts: initdb in a temp dir, its own port, never a packaged cluster),
// with a database for the app and a pgbench calibration on a scratch database beside it.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { serverBinaries, startTestCluster } from "#tests/support/postgres-cluster.ts";

const run = promisify(execFile);

// Durable writes as a deployment has them (the tests turn them off), commits not waiting for the
// flush: what SQLite's WAL with synchronous = NORMAL gives the bench's SQLite runs. The server's
// default buffers, not the tests' smaller ones.
const BENCH_SETTINGS = { fsync: "on", full_page_writes: "on", synchronous_commit: "off", shared_buffers: "128MB" };
const CALIBRATION_SECONDS = 5;
const CALIBRATION_CLIENTS = 2;

export type BenchPostgres = {
  /** The app's database (created empty; the bench migrates it). */
  url: string;
  /** pgbench's select-only transactions per second on a scratch database of the same cluster. */
  calibrate: () => Promise<{ tps: number; line: string }>;
  stop: () => Promise<void>;
  /** With `statements`: the statements that took the server's time, most first (pg_stat_statements). */
  topStatements: (limit: number) => Promise<string[]>;
  /** CPU seconds the server's processes have used (the postmaster and its children alive now). */
  cpuSeconds: () => number;
  /** Stops it synchronously, for an exit handler (nothing once stopped). */
  stopNow: () => void;
};

async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  await onDatabase(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** The statements' server time, calls and rows, as one line each. */
const topStatements = (url: string, limit: number) =>
  onDatabase(url, async (client) => {
    const { rows } = await client.query<{ ms: number; planMs: number; calls: number; rows: number; query: string }>(
      `select round(total_exec_time)::int as ms, round(total_plan_time)::int as "planMs", calls::int, rows::int,
         left(regexp_replace(query, '\\s+', ' ', 'g'), 200) as query
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
       order by total_exec_time + total_plan_time desc limit $1`,
      [limit],
    );
    const lines = rows.map(
      (row) => `${row.ms} ms (planning ${row.planMs} ms), ${row.calls} calls, ${row.rows} rows: ${row.query}`,
    );
    const { rows: all } = await client.query<{ ms: number; planMs: number; calls: number }>(
      `select round(sum(total_exec_time))::int as ms, round(sum(total_plan_time))::int as "planMs", sum(calls)::int as calls
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`,
    );
    return [`${all[0].ms} ms (planning ${all[0].planMs} ms), ${all[0].calls} calls: all statements`, ...lines];
  });

const CLOCK_TICKS = 100;

/**
 * The postmaster's and its children's CPU (Linux /proc): those alive now, and those that exited, which
 * the postmaster reaped (its cutime and cstime): an autovacuum worker that ends within a phase would
 * otherwise take its whole share out of the phase's figure.
 */
function serverCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fields: string[];
    try {
      fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
    } catch {
      continue; // exited meanwhile
    }
    if (Number(entry) === postmaster)
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    else if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS;
}

/** `statements`: load pg_stat_statements (a little overhead on every statement) to say where the time went. */
export async function startBenchPostgres({ statements = false } = {}): Promise<BenchPostgres> {
  const cluster = await startTestCluster(
    statements
      ? { ...BENCH_SETTINGS, shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track_planning": "on" }
      : BENCH_SETTINGS,
  );
  const url = await createDatabase(cluster.adminUrl, "bench");
  if (statements) await onDatabase(url, (client) => client.query("create extension pg_stat_statements"));
  const scratch = await createDatabase(cluster.adminUrl, "pgbench_calibration");
  const pgbench = join(serverBinaries(), "pgbench");
  return {
    url,
    calibrate: async () => {
      await run(pgbench, ["--initialize", "--scale", "1", "--quiet", scratch]);
      const { stdout } = await run(pgbench, [
        "--select-only",
        "--no-vacuum",
        "--time",
        String(CALIBRATION_SECONDS),
        "--client",
        String(CALIBRATION_CLIENTS),
        "--jobs",
        String(CALIBRATION_CLIENTS),
        scratch,
      ]);
      const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
      const line =
        `pgbench -i -s 1, then -S -T ${CALIBRATION_SECONDS} -c ${CALIBRATION_CLIENTS} -j ${CALIBRATION_CLIENTS}: ` +
        `${Math.round(tps)} select-only tps (the same cluster, before the app starts)`;
      return { tps: Math.round(tps), line };
    },
    topStatements: (limit) => (statements ? topStatements(url, limit) : Promise.resolve([])),
    cpuSeconds: () => serverCpuSeconds(cluster.dataDir),
    stop: cluster.stop,
    stopNow: cluster.stopNow,
  };
}
