// Routing's pure rules: the longest prefix wins, "*" catches the rest, and without any route the
// environment's upstream takes everything, as before routing existed (decision 136).
import { describe, expect, it } from "vitest";
import {
  buildRouteTable,
  formatCostMicros,
  parseCostMicros,
  parsePrefix,
  resolveRoute,
  routableNumber,
  type Route,
} from "#app/modules/routing/routing.ts";

const via = (...ids: string[]) => ids.map((upstreamId) => ({ upstreamId, weight: null, costMicros: 0 }));
const route = (prefix: string, ...ids: string[]): Route => ({ prefix, upstreams: via(...ids) });
const ids = (found: Route) => found.upstreams.map((upstream) => upstream.upstreamId);

describe("resolveRoute", () => {
  const table = buildRouteTable([route("*", "env"), route("44", "1"), route("447700", "2", "1"), route("4477", "3")]);

  it("takes the longest prefix that starts the number", () => {
    expect(resolveRoute(table, "+447700900123")).toMatchObject({ prefix: "447700", upstreams: via("2", "1") });
    expect(resolveRoute(table, "+447712345678").prefix).toBe("4477");
    expect(resolveRoute(table, "+442071234567").prefix).toBe("44");
  });

  it("falls back to * when no prefix matches", () => {
    expect(resolveRoute(table, "+12025550111")).toMatchObject({ prefix: "*", upstreams: via("env") });
  });

  it("without any route, or without *, sends through the environment's upstream alone", () => {
    expect(resolveRoute(buildRouteTable([]), "+12025550111")).toEqual({ prefix: "*", upstreams: via("env") });
    expect(resolveRoute(buildRouteTable([route("44", "1")]), "+12025550111")).toEqual({
      prefix: "*",
      upstreams: via("env"),
    });
  });

  it("skips a route with no usable upstream: the next shorter prefix applies", () => {
    const withEmpty = buildRouteTable([route("44", "1"), { prefix: "447700", upstreams: [] }]);
    expect(resolveRoute(withEmpty, "+447700900123").prefix).toBe("44");
  });

  it("draws the first attempt among weighted upstreams in proportion to their weights; the rest follow in order", () => {
    const weighted = buildRouteTable([
      {
        prefix: "33",
        upstreams: [
          { upstreamId: "a", weight: 3, costMicros: 0 },
          { upstreamId: "b", weight: 1, costMicros: 0 },
          { upstreamId: "c", weight: null, costMicros: 0 },
        ],
      },
    ]);
    expect(ids(resolveRoute(weighted, "+33612345678", () => 0))).toEqual(["a", "b", "c"]);
    expect(ids(resolveRoute(weighted, "+33612345678", () => 0.74))).toEqual(["a", "b", "c"]);
    expect(ids(resolveRoute(weighted, "+33612345678", () => 0.75))).toEqual(["b", "a", "c"]);
    let draws = 0;
    const firsts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 400; i++) {
      const first = ids(resolveRoute(weighted, "+33612345678", () => (draws++ % 400) / 400))[0];
      firsts[first as keyof typeof firsts] += 1;
    }
    expect(firsts).toEqual({ a: 300, b: 100, c: 0 });
  });

  it("keeps the route's order when no upstream has a weight", () => {
    expect(ids(resolveRoute(table, "+447700900123", () => 0.99))).toEqual(["2", "1"]);
  });
});

describe("prefixes and costs as the admin types them", () => {
  it.each([
    ["+44", "44"],
    [" 44 7700 ", "447700"],
    ["*", "*"],
    ["+1-202", "1202"],
  ])("%j is the prefix %j", (input, prefix) => expect(parsePrefix(input)).toBe(prefix));

  it.each(["", "+", "044", "44a", "1234567890123456", "**"])("%j is not a prefix", (input) =>
    expect(parsePrefix(input)).toBeNull(),
  );

  it("reads the dry run's number: international as written (reserved ranges too), local in the default country", () => {
    expect(routableNumber("+44 7700 900123", "US")).toBe("+447700900123");
    expect(routableNumber("(202) 555-0111", "US")).toBe("+12025550111");
    expect(routableNumber("12", "US")).toBeNull();
    expect(routableNumber("+44 abc", "US")).toBeNull();
  });

  it("reads and writes costs in millionths of a dollar", () => {
    expect(parseCostMicros("0.0042")).toBe(4200);
    expect(parseCostMicros("$1.5")).toBe(1_500_000);
    expect(parseCostMicros("0.0000001")).toBeNull();
    expect(parseCostMicros("-1")).toBeNull();
    expect(formatCostMicros(4200)).toBe("$0.0042");
    expect(formatCostMicros(10_000)).toBe("$0.01");
    expect(formatCostMicros(0)).toBe("$0.00");
    expect(formatCostMicros(123_456)).toBe("$0.123456");
    expect(formatCostMicros(-4200)).toBe("-$0.0042");
  });
});
