// The admin overview: sales and messages per local day, the busiest accounts, the accounts whose
// recipients answer STOP, credits and revenue per destination, and the system's state.
import { sqlText, statements } from "#app/db/statements.server.ts";
import { databaseSize } from "#app/modules/health/health.server.ts";
import { HEARTBEAT_FRESH_MS, readHeartbeats } from "#app/modules/health/heartbeat.server.ts";
import { countsByDay, topSendersBetween } from "#app/modules/insight/rollup.server.ts";
import { totalsOf } from "#app/modules/insight/dashboard.server.ts";
import { lastLocalDaysCached, type LocalDay, type Period } from "#app/modules/insight/periods.ts";
import { queueDepths, type QueueState } from "#app/queue/queue-depth.server.ts";
import { SHARED_REPLY_WINDOW_MS } from "#app/modules/inbound/receive.server.ts";
import { matchingPrefix } from "#app/modules/pricing/price-list.ts";
import { currentPriceList, type DestinationRevenue, revenueByDestination } from "#app/modules/pricing/prices.server.ts";
import { currentRouteTable } from "#app/modules/routing/route-table.server.ts";
import { DEFAULT_PREFIX, resolveRoute } from "#app/modules/routing/routing.ts";

type SalesDay = { date: string; revenueCents: number; creditsSold: number; orders: number };

const queries = statements({
  // Segments of the messages created in [start, end) that an upstream accepted, by the first `digits`
  // digits of the number and that upstream (an attempt that names none was the environment's).
  acceptedSegments: sqlText<
    [{ digits: number; start: number; end: number }],
    { head: string; upstream: string; segments: number }
  >({
    sqlite: `select substr(m.to_phone, 2, @digits) as head, coalesce(a.upstream, 'env') as upstream, sum(m.segments) as segments
   from sms_messages m join sms_submit_attempts a on a.message_id = m.id and a.outcome = 'accepted'
   where m.created_at >= @start and m.created_at < @end
   group by head, coalesce(a.upstream, 'env')`,
    postgres: `select substr(m.to_phone, 2, @digits) as head, coalesce(a.upstream, 'env') as upstream, sum(m.segments)::bigint as segments
   from sms_messages m join sms_submit_attempts a on a.message_id = m.id and a.outcome = 'accepted'
   where m.created_at >= @start and m.created_at < @end
   group by head, coalesce(a.upstream, 'env')`,
  }),
  // Paid orders by the time they were paid, net of what was refunded or taken back since.
  paidOrders: sqlText<[number, number], { at: number; cents: number; credits: number }>(
    `select confirmed_at as at, total_cents - refunded_cents as cents, total_credits - credits_reversed as credits
   from orders where confirmed_at >= ? and confirmed_at < ?`,
  ),
  accountNames: sqlText<[string], { id: number; fullName: string; email: string }>({
    sqlite: "select id, full_name as fullName, email from users where id in (select value from jsonb_each(?))",
    postgres: `select id, full_name as "fullName", email from users where id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  // A keyword opt-out made in the period counts against every account that wrote to the phone from the
  // sender it answered (the shared one: scope "") in the period and the 30 days before it.
  optOutsByAccount: sqlText<
    [{ start: number; end: number; window: number }],
    { userId: number; stopped: number; recipients: number }
  >({
    sqlite: `with stops as (
     select distinct m.user_id as userId, o.phone
     from opt_outs o join sms_messages m on m.to_phone = o.phone
     where o.source = 'keyword' and o.created_at >= @start and o.created_at < @end
       and coalesce(m.from_address, '') = o.scope and m.source <> 'keyword'
       and m.created_at >= max(@start, o.created_at - @window) and m.created_at <= o.created_at
   )
   select userId, count(*) as stopped,
     (select count(distinct r.to_phone) from sms_messages r
      where r.user_id = stops.userId and r.created_at >= @start and r.created_at < @end and r.source <> 'keyword')
       as recipients
   from stops group by userId`,
    postgres: `with stops as (
     select distinct m.user_id as "userId", o.phone
     from opt_outs o join sms_messages m on m.to_phone = o.phone
     where o.source = 'keyword' and o.created_at >= @start and o.created_at < @end
       and coalesce(m.from_address, '') = o.scope and m.source <> 'keyword'
       and m.created_at >= greatest(@start, o.created_at - @window) and m.created_at <= o.created_at
   )
   select "userId", count(*) as stopped,
     (select count(distinct r.to_phone) from sms_messages r
      where r.user_id = stops."userId" and r.created_at >= @start and r.created_at < @end and r.source <> 'keyword')
       as recipients
   from stops group by "userId"`,
  }),
});

/** Revenue, credits sold and paid orders per local day. */
async function salesByDay(days: LocalDay[]): Promise<SalesDay[]> {
  const sales = days.map((day) => ({ date: day.date, revenueCents: 0, creditsSold: 0, orders: 0 }));
  if (days.length === 0) return sales;
  for (const order of await queries.paidOrders.all(days[0].start, days.at(-1)!.end)) {
    const index = days.findLastIndex((day) => day.start <= order.at);
    sales[index].revenueCents += order.cents;
    sales[index].creditsSold += order.credits;
    sales[index].orders += 1;
  }
  return sales;
}

const TOP_ACCOUNTS = 10;

/** The rows with their account's name and e-mail. */
async function withNames<Row extends { userId: number }>(rows: Row[]) {
  const names = new Map(
    (await queries.accountNames.all(JSON.stringify(rows.map((row) => row.userId)))).map((u) => [u.id, u]),
  );
  return rows.map((row) => ({
    ...row,
    fullName: names.get(row.userId)?.fullName ?? "",
    email: names.get(row.userId)?.email ?? "",
  }));
}

/** The accounts that sent the most in the period, most first, with their names. */
async function busiestAccounts(days: LocalDay[]) {
  return await withNames(await topSendersBetween(days[0].start, days.at(-1)!.end, TOP_ACCOUNTS));
}

const OPT_OUT_ACCOUNTS = 10;

type OptOutShare = { userId: number; fullName: string; email: string; recipients: number; stopped: number };

/**
 * The accounts whose recipients in the period answered STOP (and are still opted out), the highest
 * share first: an account provoking opt-outs, which on the shared sender block every account, stands out.
 */
async function optOutShares(days: LocalDay[]): Promise<OptOutShare[]> {
  const rows = (
    await queries.optOutsByAccount.all({ start: days[0].start, end: days.at(-1)!.end, window: SHARED_REPLY_WINDOW_MS })
  )
    .sort((a, b) => b.stopped / b.recipients - a.stopped / a.recipients || b.stopped - a.stopped)
    .slice(0, OPT_OUT_ACCOUNTS);
  return await withNames(rows);
}

type SystemState = {
  queues: { queue: string; jobs: Record<QueueState, number> }[] | null;
  workers: { alive: number; smppBinds: number; smppBound: number; smpp: boolean } | null;
  database: { bytes: number; freeBytes: number };
};

/** Queue depths, live workers and their SMPP binds (null when Redis does not answer), and the database's size. */
async function systemState(now: number): Promise<SystemState> {
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
  return { queues, workers, database: await databaseSize() };
}

/** Cents are ten thousand millionths. */
const MICROS_PER_CENT = 10_000;

export type DestinationMargin = DestinationRevenue & { costMicros: number; marginMicros: number | null };

/**
 * Revenue by destination with what the upstreams charged for it: the segments each upstream accepted
 * (its submit attempts) at that upstream's cost per segment in the route now matching the number
 * (0 when the route no longer lists it), grouped by the price list's prefix as revenue is; one
 * statement for any number of messages.
 */
async function marginByDestination(start: number, end: number): Promise<DestinationMargin[]> {
  const revenue = await revenueByDestination(start, end);
  const [prices, routes] = [await currentPriceList(), await currentRouteTable()];
  const longestRoute = Math.max(
    0,
    ...[...routes.keys()].map((prefix) => (prefix === DEFAULT_PREFIX ? 0 : prefix.length)),
  );
  const digits = Math.max(1, prices.longest, longestRoute);
  const costs = new Map<string, number>();
  for (const { head, upstream, segments } of await queries.acceptedSegments.all({ digits, start, end })) {
    const route = resolveRoute(routes, head, () => 0);
    const costMicros = route.upstreams.find((u) => u.upstreamId === upstream)?.costMicros ?? 0;
    const prefix = matchingPrefix(prices, head);
    costs.set(prefix, (costs.get(prefix) ?? 0) + Number(segments) * costMicros);
  }
  const rows: DestinationMargin[] = revenue.map((row) => {
    const costMicros = costs.get(row.prefix) ?? 0;
    costs.delete(row.prefix);
    const marginMicros = row.revenueCents === null ? null : row.revenueCents * MICROS_PER_CENT - costMicros;
    return { ...row, costMicros, marginMicros };
  });
  // Sent but nothing charged (every credit refunded): a cost with no revenue.
  for (const [prefix, costMicros] of costs) {
    rows.push({ prefix, messages: 0, credits: 0, revenueCents: 0, costMicros, marginMicros: -costMicros });
  }
  return rows;
}

/** Everything the admin overview shows for the last `period` days in the admin's time zone. */
export async function getAdminOverview(period: Period, timeZone: string, now: number) {
  const days = lastLocalDaysCached(period, timeZone, now);
  const perDay = await countsByDay(null, days);
  return {
    sales: await salesByDay(days),
    perDay,
    totals: totalsOf(perDay),
    busiest: await busiestAccounts(days),
    optOuts: await optOutShares(days),
    destinations: await marginByDestination(days[0].start, days.at(-1)!.end),
    system: await systemState(now),
  };
}
