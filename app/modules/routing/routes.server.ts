// The admin's routes: a destination prefix and the upstreams it goes through, in order, with
// optional weights and what each upstream charges per segment there.
import { asc, eq, inArray } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { isUniqueViolation } from "#app/db/dialect.server.ts";
import { routes, routeUpstreams } from "#app/db/schema/routing.ts";
import { clock } from "#app/utils/clock.server.ts";
import { RoutingInputError, RoutingNotFoundError } from "#app/modules/routing/errors.ts";
import { currentRouteTable, forgetRouteTable } from "#app/modules/routing/route-table.server.ts";
import { DEFAULT_PREFIX, ENV_UPSTREAM, resolveRoute, type RouteUpstream } from "#app/modules/routing/routing.ts";
import { listUpstreams, type AdminUpstream } from "#app/modules/routing/upstreams.server.ts";
import { creditsPerSegmentTo, revenuePerCredit } from "#app/modules/pricing/prices.server.ts";

export type AdminRouteUpstream = RouteUpstream & { name: string; enabled: boolean };

export type AdminRoute = { id: number; prefix: string; upstreams: AdminRouteUpstream[] };

export type RouteInput = { prefix: string; upstreams: RouteUpstream[] };

const storedId = (upstreamId: string) => (upstreamId === ENV_UPSTREAM.id ? null : Number(upstreamId));

/** Every route, "*" first, then by prefix; each with its upstreams in order, named. */
export async function listRoutes(known?: AdminUpstream[]): Promise<AdminRoute[]> {
  return await readRoutes(undefined, known);
}

async function readRoutes(id: number | undefined, known?: AdminUpstream[]): Promise<AdminRoute[]> {
  const byId = new Map((known ?? (await listUpstreams())).map((upstream) => [upstream.id, upstream]));
  const query = getDb().select().from(routes);
  const rows = await (id === undefined ? query : query.where(eq(routes.id, id))).orderBy(asc(routes.prefix)).all();
  const members = rows.length
    ? await getDb()
        .select()
        .from(routeUpstreams)
        .where(
          inArray(
            routeUpstreams.routeId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(routeUpstreams.routeId), asc(routeUpstreams.position))
        .all()
    : [];
  return rows
    .map((row) => ({
      id: row.id,
      prefix: row.prefix,
      upstreams: members
        .filter((member) => member.routeId === row.id)
        .map((member) => {
          const upstreamId = member.upstreamId === null ? ENV_UPSTREAM.id : String(member.upstreamId);
          const upstream = byId.get(upstreamId);
          return {
            upstreamId,
            weight: member.weight,
            costMicros: member.costMicros,
            name: upstream?.name ?? upstreamId,
            enabled: upstream?.enabled ?? false,
          };
        }),
    }))
    .sort((a, b) => Number(b.prefix === DEFAULT_PREFIX) - Number(a.prefix === DEFAULT_PREFIX));
}

export async function getRoute(id: number): Promise<AdminRoute> {
  const [route] = await readRoutes(id);
  if (!route) throw new RoutingNotFoundError("route");
  return route;
}

async function checkInput(input: RouteInput): Promise<void> {
  if (input.upstreams.length === 0) throw new RoutingInputError("upstreams", "Choose at least one upstream");
  const known = new Set((await listUpstreams()).map((upstream) => upstream.id));
  const seen = new Set<string>();
  input.upstreams.forEach(({ upstreamId }, index) => {
    if (!known.has(upstreamId)) throw new RoutingInputError(`slots[${index}].upstream`, "No such upstream");
    if (seen.has(upstreamId))
      throw new RoutingInputError(`slots[${index}].upstream`, "This upstream is already in the route");
    seen.add(upstreamId);
  });
}

/** Creates the route (`id` undefined) or replaces it; a prefix another route has is refused. */
export async function saveRoute(id: number | undefined, input: RouteInput): Promise<AdminRoute> {
  if (id !== undefined) await getRoute(id);
  await checkInput(input);
  const now = clock.date();
  const savedId = await withTx(async (tx) => {
    const write =
      id === undefined
        ? tx.insert(routes).values({ prefix: input.prefix, updatedAt: now }).returning({ id: routes.id }).get()
        : tx
            .update(routes)
            .set({ prefix: input.prefix, updatedAt: now })
            .where(eq(routes.id, id))
            .returning({ id: routes.id })
            .get();
    const route = await write.catch((error: unknown) => {
      if (isUniqueViolation(error))
        throw new RoutingInputError("prefix", "Another route has this prefix: edit that one");
      throw error;
    });
    await tx.delete(routeUpstreams).where(eq(routeUpstreams.routeId, route.id)).run();
    await tx
      .insert(routeUpstreams)
      .values(
        input.upstreams.map((upstream, position) => ({
          routeId: route.id,
          position,
          upstreamId: storedId(upstream.upstreamId),
          weight: upstream.weight,
          costMicros: upstream.costMicros,
        })),
      )
      .run();
    return route.id;
  });
  forgetRouteTable();
  return await getRoute(savedId);
}

export async function deleteRoute(id: number): Promise<AdminRoute> {
  const route = await getRoute(id);
  await withTx((tx) => tx.delete(routes).where(eq(routes.id, id)).run());
  forgetRouteTable();
  return route;
}

export type DryRun = {
  /** The route that matched: a prefix, or "*" (an implicit one when no "*" route exists). */
  prefix: string;
  /** In the order they would be tried (a weighted route's first one is drawn per message). */
  upstreams: { id: string; name: string; weight: number | null; costMicros: number }[];
  /** What the customer is charged per segment there (the price list, decision 134). */
  creditsPerSegment: number;
  /** What a credit has sold for on average, in millionths; null before the first paid order. */
  revenuePerCreditMicros: number | null;
  /** What one segment there brings in (its credits at that average), in millionths; null when unknown. */
  revenueMicros: number | null;
  /** Per segment, that revenue minus the first upstream's cost, in millionths; null when revenue is unknown. */
  marginMicros: number | null;
};

/** Cents are ten thousand millionths. */
const MICROS_PER_CENT = 10_000;

/** Where a message to `e164` would go, with what each upstream charges per segment there, the price and the margin. */
export async function dryRunRoute(e164: string): Promise<DryRun> {
  const names = new Map((await listUpstreams()).map((upstream) => [upstream.id, upstream.name]));
  // Drawn at 0: a weighted route shows its first weighted upstream first, the rest in order.
  const route = resolveRoute(await currentRouteTable(), e164, () => 0);
  const creditsPerSegment = await creditsPerSegmentTo(e164);
  const perCreditCents = await revenuePerCredit();
  const revenueMicros =
    perCreditCents === null ? null : Math.round(creditsPerSegment * perCreditCents * MICROS_PER_CENT);
  return {
    creditsPerSegment,
    revenuePerCreditMicros: perCreditCents === null ? null : Math.round(perCreditCents * MICROS_PER_CENT),
    revenueMicros,
    // The first upstream takes the message unless it provably did not: its cost is the margin's.
    marginMicros: revenueMicros === null ? null : revenueMicros - (route.upstreams[0]?.costMicros ?? 0),
    prefix: route.prefix,
    upstreams: route.upstreams.map(({ upstreamId, weight, costMicros }) => ({
      id: upstreamId,
      name: names.get(upstreamId) ?? upstreamId,
      weight,
      costMicros,
    })),
  };
}
