// The route table every send path resolves against, read in one statement and kept in memory: a
// batch of any size pays at most that one statement, and a message none (decision 136).
import { clock } from "#app/utils/clock.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import {
  buildRouteTable,
  ENV_UPSTREAM,
  resolveRoute,
  type Route,
  type RouteTable,
} from "#app/modules/routing/routing.ts";

/** How stale another process's change may be seen here; this process's own changes are seen at once. */
const FRESH_MS = 1_000;

let cached: { table: RouteTable; readAt: number } | undefined;

// Simulated upstreams count only in test mode (the second parameter, 1 or 0).
const queries = statements({
  routeRows: sqlText<
    [number],
    { prefix: string; upstreamId: number | null; weight: number | null; costMicros: number }
  >({
    sqlite: `select r.prefix, m.upstream_id as upstreamId, m.weight, m.cost_micros as costMicros
   from routes r join route_upstreams m on m.route_id = r.id left join upstreams u on u.id = m.upstream_id
   where m.upstream_id is null or (u.enabled = 1 and (u.kind = 'smpp' or ? = 1))
   order by r.prefix, m.position`,
    postgres: `select r.prefix, m.upstream_id as "upstreamId", m.weight, m.cost_micros as "costMicros"
   from routes r join route_upstreams m on m.route_id = r.id left join upstreams u on u.id = m.upstream_id
   where m.upstream_id is null or (u.enabled and (u.kind = 'smpp' or $1 = 1))
   order by r.prefix, m.position`,
  }),
});

/** Every route with its usable upstreams in order: enabled ones, simulated ones only in test mode. */
async function readRouteTable(): Promise<RouteTable> {
  const byPrefix = new Map<string, Route>();
  for (const { prefix, upstreamId, weight, costMicros } of await queries.routeRows.all(getEnv().testMode.sms ? 1 : 0)) {
    const route = byPrefix.get(prefix) ?? { prefix, upstreams: [] };
    route.upstreams.push({
      upstreamId: upstreamId === null ? ENV_UPSTREAM.id : String(upstreamId),
      weight,
      costMicros,
    });
    byPrefix.set(prefix, route);
  }
  return buildRouteTable([...byPrefix.values()]);
}

/** The table as of at most a second ago (another process's change), or now (this process's). */
export async function currentRouteTable(): Promise<RouteTable> {
  // The injected clock (a test that holds time holds the statements too); a clock set back reads again.
  const now = clock.now();
  if (!cached || now < cached.readAt || now - cached.readAt > FRESH_MS) {
    cached = { table: await readRouteTable(), readAt: now };
  }
  return cached.table;
}

/** The route a message to `e164` takes: its prefix and the upstreams to try, in order. */
export async function routeFor(e164: string): Promise<Route> {
  return resolveRoute(await currentRouteTable(), e164);
}

/** After a route or an upstream changed: the next look-up reads the table again. */
export function forgetRouteTable(): void {
  cached = undefined;
}

/** Each destination's upstream ids, in the order its route tries them, from the table of this moment. */
export async function upstreamIdsByDestination(): Promise<(to: string) => string[]> {
  const table = await currentRouteTable();
  return (to) => resolveRoute(table, to).upstreams.map((upstream) => upstream.upstreamId);
}
