// The route table every send path resolves against, read in one statement and kept in memory: a
// batch of any size pays at most that one statement, and a message none (decision 136).
import { and, asc, eq, isNull, or } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { routes, routeUpstreams, upstreams } from "#app/db/schema/routing.ts";
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

/** Every route with its usable upstreams in order: enabled ones, simulated ones only in test mode. */
async function readRouteTable(): Promise<RouteTable> {
  const usable = getEnv().testMode.sms
    ? eq(upstreams.enabled, true)
    : and(eq(upstreams.enabled, true), eq(upstreams.kind, "smpp"));
  const rows = await getDb()
    .select({
      prefix: routes.prefix,
      upstreamId: routeUpstreams.upstreamId,
      weight: routeUpstreams.weight,
      costMicros: routeUpstreams.costMicros,
    })
    .from(routes)
    .innerJoin(routeUpstreams, eq(routeUpstreams.routeId, routes.id))
    .leftJoin(upstreams, eq(upstreams.id, routeUpstreams.upstreamId))
    .where(or(isNull(routeUpstreams.upstreamId), usable))
    .orderBy(asc(routes.prefix), asc(routeUpstreams.position))
    .all();
  const byPrefix = new Map<string, Route>();
  for (const { prefix, upstreamId, weight, costMicros } of rows) {
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
  if (!cached || performance.now() - cached.readAt > FRESH_MS) {
    cached = { table: await readRouteTable(), readAt: performance.now() };
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
