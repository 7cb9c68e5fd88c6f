// Analytics sees page paths, never the secret of a one-time link (reset, setup, verification).
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { analyticsPagePath } from "#app/components/analytics.tsx";
import routes from "#app/routes.ts";

type Entry = { path?: string; children?: Entry[] };
const paths = (entries: Entry[], parent = ""): string[] =>
  entries.flatMap((e) => {
    const path = e.path ? `${parent}/${e.path}` : parent;
    return [path, ...paths(e.children ?? [], path)];
  });

const SECRET = "Zq8xSecretToken_0123456789abcdef";

describe("the page path analytics sees", () => {
  const tokenRoutes = [...new Set(paths(routes as Entry[]).filter((p) => p.includes(":token")))];

  it("covers every link that carries a token", () => {
    expect(tokenRoutes).toEqual(
      expect.arrayContaining(["/setup/:token", "/reset-password/:token", "/verify-email/:token"]),
    );
  });

  it.each(tokenRoutes)("%s: the token is replaced by its name", (pattern) => {
    const pathname = pattern.replace(":token", SECRET);
    const [match] = matchRoutes(routes as RouteObject[], pathname)!.slice(-1);
    const sent = analyticsPagePath(pathname, match.params);
    expect(sent).toBe(pattern);
    expect(sent).not.toContain(SECRET);
  });

  it("keeps other pages as they are", () => {
    const [match] = matchRoutes(routes as RouteObject[], "/order/orderDetails/42")!.slice(-1);
    expect(analyticsPagePath("/order/orderDetails/42", match.params)).toBe("/order/orderDetails/42");
    expect(analyticsPagePath("/sms/sendSms", {})).toBe("/sms/sendSms");
  });
});
