// Browser-safe: routing's vocabulary and the pure longest-prefix match (decision 136). The server
// builds a RouteTable once (routes.server.ts) and resolves each message against it in memory.
import { type CountryCode, isE164, normalizePhone } from "#app/modules/messaging/phone.ts";

/** The environment's upstream (SMPP_URL, or the simulator): never a row, always there. */
export const ENV_UPSTREAM = { id: "env", name: "default" } as const;

/** The prefix of the route every destination falls back to. */
export const DEFAULT_PREFIX = "*";

/** Upstreams one route may list: enough for a primary, its failovers and a least-cost split. */
export const MAX_ROUTE_UPSTREAMS = 5;

/** E.164 allows 15 digits; a prefix is never longer than a number. */
const MAX_PREFIX_DIGITS = 15;

/** One process's view of one upstream over its last few seconds. */
export type UpstreamState = {
  /** The UpstreamConfig id: "env" or an upstream row's id. */
  id: string;
  bindsUp: number;
  submitsPerSecond: number;
  /** Submits refused or unanswered, as a share of all submits (0 to 1). */
  errorRate: number;
  lastError: { message: string; at: number } | null;
};

/** A worker publishes every few seconds; one not heard of for this long has stopped. */
export const STATE_FRESH_MS = 30_000;

export type RouteUpstream = {
  /** "env" or an upstream row's id as text (the worker's UpstreamConfig id). */
  upstreamId: string;
  /** Share of first attempts among the route's weighted upstreams; null: tried in its place only. */
  weight: number | null;
  /** What this upstream charges per segment to this prefix, in millionths of the shop's currency. */
  costMicros: number;
};

export type Route = { prefix: string; upstreams: RouteUpstream[] };

/** Routes by prefix, only the enabled upstreams in each; build it with buildRouteTable. */
export type RouteTable = ReadonlyMap<string, Route>;

/** Used when no "*" route exists: the environment's upstream alone, as before routing existed. */
const IMPLICIT_DEFAULT: Route = {
  prefix: DEFAULT_PREFIX,
  upstreams: [{ upstreamId: ENV_UPSTREAM.id, weight: null, costMicros: 0 }],
};

/** A route without an enabled upstream is left out: its destinations fall to the next shorter prefix. */
export function buildRouteTable(routes: Route[]): RouteTable {
  return new Map(routes.filter((route) => route.upstreams.length > 0).map((route) => [route.prefix, route]));
}

/** "+44 7700-900" or "447700900" as bare digits, "*" as is; null when it is neither. */
export function parsePrefix(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === DEFAULT_PREFIX) return DEFAULT_PREFIX;
  const digits = trimmed.replace(/^\+/, "").replace(/[\s-]/g, "");
  return new RegExp(`^[1-9]\\d{0,${MAX_PREFIX_DIGITS - 1}}$`).test(digits) ? digits : null;
}

/**
 * The E.164 number routing would see for what an admin typed in the dry run: an international
 * number as written (reserved ranges such as +44 7700 900xxx included, since only its digits
 * matter here), or a valid local number read in `defaultCountry`; null otherwise.
 */
export function routableNumber(input: string, defaultCountry: CountryCode): string | null {
  const international = input.trim().replace(/[\s().\-/]/g, "");
  if (isE164(international)) return international;
  const local = normalizePhone(input, defaultCountry);
  return local.ok ? local.e164 : null;
}

/** The prefix as people read it: "+44", or "*". */
export function displayPrefix(prefix: string): string {
  return prefix === DEFAULT_PREFIX ? DEFAULT_PREFIX : `+${prefix}`;
}

/**
 * The route for an E.164 number: the longest matching prefix, else "*", else the environment's
 * upstream. Its upstreams come in the order to try them: when some carry a weight, one of those is
 * drawn first in proportion to its weight (`random` in [0, 1)), the rest follow in the route's order.
 */
export function resolveRoute(table: RouteTable, e164: string, random: () => number = Math.random): Route {
  const digits = e164.startsWith("+") ? e164.slice(1) : e164;
  let route: Route | undefined;
  // At most 15 map look-ups whatever the table's size.
  for (let length = Math.min(digits.length, MAX_PREFIX_DIGITS); length > 0 && !route; length--) {
    route = table.get(digits.slice(0, length));
  }
  route ??= table.get(DEFAULT_PREFIX) ?? IMPLICIT_DEFAULT;
  const weighted = route.upstreams.filter((upstream) => upstream.weight !== null);
  if (weighted.length < 2 && (weighted.length === 0 || route.upstreams[0] === weighted[0])) return route;
  const first = drawWeighted(weighted, random());
  return { prefix: route.prefix, upstreams: [first, ...route.upstreams.filter((upstream) => upstream !== first)] };
}

function drawWeighted(weighted: RouteUpstream[], draw: number): RouteUpstream {
  const total = weighted.reduce((sum, upstream) => sum + upstream.weight!, 0);
  let point = draw * total;
  for (const upstream of weighted) {
    point -= upstream.weight!;
    if (point < 0) return upstream;
  }
  return weighted[weighted.length - 1];
}

/** Millionths of the currency as dollars with at least cents: 4200 is "$0.0042", 10000 is "$0.01", -10000 "-$0.01". */
export function formatCostMicros(micros: number): string {
  const text = (Math.abs(micros) / 1_000_000).toFixed(6).replace(/0{1,4}$/, "");
  return `${micros < 0 ? "-" : ""}$${text}`;
}

/** "0.0042" (dollars, up to six decimals) as 4200 millionths; null when it is not such an amount. */
export function parseCostMicros(input: string): number | null {
  const match = /^\$?\s*(\d{1,4})(?:\.(\d{1,6}))?$/.exec(input.trim());
  if (!match) return null;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? "").padEnd(6, "0"));
}
