// The admin overview: sales and messages per local day, the busiest accounts, and the system's state.
import { statement } from "#app/db/statements.server.ts";
import { databaseSize } from "#app/modules/health/health.server.ts";
import { HEARTBEAT_FRESH_MS, readHeartbeats } from "#app/modules/health/heartbeat.server.ts";
import { countsByDay, topSendersBetween } from "#app/modules/insight/rollup.server.ts";
import { totalsOf } from "#app/modules/insight/dashboard.server.ts";
import { lastLocalDaysCached, type LocalDay, type Period } from "#app/modules/insight/periods.ts";
import { queueDepths, type QueueState } from "#app/queue/queue-depth.server.ts";

export type SalesDay = { date: string; revenueCents: number; creditsSold: number; orders: number };

// Paid orders by the time they were paid, net of what was refunded or taken back since.
const paidOrders = statement<[number, number], { at: number; cents: number; credits: number }>(
  `select confirmed_at as at, total_cents - refunded_cents as cents, total_credits - credits_reversed as credits
   from orders where confirmed_at >= ? and confirmed_at < ?`,
);

/** Revenue, credits sold and paid orders per local day. */
export function salesByDay(days: LocalDay[]): SalesDay[] {
  const sales = days.map((day) => ({ date: day.date, revenueCents: 0, creditsSold: 0, orders: 0 }));
  if (days.length === 0) return sales;
  for (const order of paidOrders().all(days[0].start, days.at(-1)!.end)) {
    const index = days.findLastIndex((day) => day.start <= order.at);
    sales[index].revenueCents += order.cents;
    sales[index].creditsSold += order.credits;
    sales[index].orders += 1;
  }
  return sales;
}

const TOP_ACCOUNTS = 10;
const accountNames = statement<[string], { id: number; fullName: string; email: string }>(
  "select id, full_name as fullName, email from users where id in (select value from json_each(?))",
);

/** The accounts that sent the most in the period, most first, with their names. */
function busiestAccounts(days: LocalDay[]) {
  const top = topSendersBetween(days[0].start, days.at(-1)!.end, TOP_ACCOUNTS);
  const names = new Map(
    accountNames()
      .all(JSON.stringify(top.map((row) => row.userId)))
      .map((u) => [u.id, u]),
  );
  return top.map((row) => ({
    ...row,
    fullName: names.get(row.userId)?.fullName ?? "",
    email: names.get(row.userId)?.email ?? "",
  }));
}

export type SystemState = {
  queues: { queue: string; jobs: Record<QueueState, number> }[] | null;
  workers: { alive: number; smppBinds: number; smppBound: number; smpp: boolean } | null;
  database: { bytes: number; freeBytes: number };
};

/** Queue depths, live workers and their SMPP binds (null when Redis does not answer), and the database's size. */
export async function systemState(now: number): Promise<SystemState> {
  const [depths, beats] = await Promise.allSettled([queueDepths(), readHeartbeats(now)]);
  let queues: SystemState["queues"] = null;
  if (depths.status === "fulfilled") {
    const byQueue = new Map<string, Record<QueueState, number>>();
    for (const row of depths.value) {
      const jobs = byQueue.get(row.queue) ?? { waiting: 0, active: 0, delayed: 0, prioritized: 0, failed: 0 };
      jobs[row.state] = row.jobs;
      byQueue.set(row.queue, jobs);
    }
    queues = [...byQueue].map(([queue, jobs]) => ({ queue, jobs }));
  }
  let workers: SystemState["workers"] = null;
  if (beats.status === "fulfilled") {
    const alive = [...beats.value.values()].filter((beat) => now - beat.at <= HEARTBEAT_FRESH_MS);
    workers = {
      alive: alive.length,
      smpp: alive.some((beat) => beat.smpp !== null),
      smppBinds: alive.reduce((sum, beat) => sum + (beat.smpp?.binds ?? 0), 0),
      smppBound: alive.reduce((sum, beat) => sum + (beat.smpp?.bound ?? 0), 0),
    };
  }
  return { queues, workers, database: databaseSize() };
}

/** Everything the admin overview shows for the last `period` days in the admin's time zone. */
export async function getAdminOverview(period: Period, timeZone: string, now: number) {
  const days = lastLocalDaysCached(period, timeZone, now);
  const perDay = countsByDay(null, days);
  return {
    sales: salesByDay(days),
    perDay,
    totals: totalsOf(perDay),
    busiest: busiestAccounts(days),
    system: await systemState(now),
  };
}
