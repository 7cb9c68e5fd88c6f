// Each process's work counts (decision 113) as GET /metrics reports them: the web's own, and each
// worker's from its heartbeat. For the budgets test and the bench.
import { readHeartbeats } from "#app/modules/health/heartbeat.server.ts";
import type { WorkCounts } from "#app/utils/work-counts.server.ts";
import { waitFor } from "#tests/support/wait.ts";

export type ProcessCounts = { web: WorkCounts; worker: WorkCounts };

const FIELDS: Record<string, keyof WorkCounts> = {
  work_sql_statements_total: "statements",
  work_sql_commits_total: "commits",
  work_sql_busy_retries_total: "busyRetries",
  work_sql_rows_written_total: "rowsWritten",
  work_redis_commands_total: "redisCommands",
  work_log_lines_total: "logLines",
  work_log_bytes_total: "logBytes",
  work_exceptions_total: "exceptions",
};

const zero = (): WorkCounts =>
  Object.fromEntries(Object.values(FIELDS).map((field) => [field, 0])) as unknown as WorkCounts;

/** The counts now: after a heartbeat of every worker newer than this call, summed over the workers. */
export async function workCountsNow(webUrl: string, metricsToken: string, workers = 1): Promise<ProcessCounts> {
  const since = Date.now();
  await waitFor(
    async () =>
      [...(await readHeartbeats()).values()].filter((beat) => beat.at >= since && beat.work).length >= workers,
    { what: "a fresh heartbeat of every worker", timeout: 15_000, interval: 100 },
  );
  const response = await fetch(`${webUrl}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } });
  const counts: ProcessCounts = { web: zero(), worker: zero() };
  for (const [, name, process, value] of (await response.text()).matchAll(
    /^(work_\w+_total)\{process="([^"]+)"\} (\d+)$/gm,
  )) {
    counts[process === "web" ? "web" : "worker"][FIELDS[name]] += Number(value);
  }
  return counts;
}

/** What each process did between two readings, per message. */
export function perMessage(before: ProcessCounts, after: ProcessCounts, messages: number): ProcessCounts {
  const divide = (from: WorkCounts, to: WorkCounts) =>
    Object.fromEntries(
      Object.entries(to).map(([field, value]) => [field, (value - from[field as keyof WorkCounts]) / messages]),
    ) as WorkCounts;
  return { web: divide(before.web, after.web), worker: divide(before.worker, after.worker) };
}
