import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

// A route parameter with one of these names carries a secret (the first-admin setup link): the
// log line names the route template instead of the path.
const SECRET_PARAM = /^(token|code|secret|key)$/i;

export type PageRoute = { template: string; secret: boolean };

type Matcher = (pathname: string) => PageRoute | undefined;

/** Finds the route template of a page request (`/order/orderDetails/:id`) in the build's manifest. */
export function pageRouteMatcher(routes: ServerBuild["routes"]): Matcher {
  const templates = new Map<string, PageRoute>();
  const children = new Map<string | undefined, RouteObject[]>();
  const templateOf = (id: string): string => {
    const route = routes[id]!;
    const parent = route.parentId ? templateOf(route.parentId) : "";
    return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent || "/";
  };
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const template = templateOf(route.id);
    const secret = [...template.matchAll(/:(\w+)/g)].some(([, name]) => SECRET_PARAM.test(name));
    templates.set(route.id, { template, secret });
    const siblings = children.get(route.parentId) ?? [];
    siblings.push({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
    } as RouteObject);
    children.set(route.parentId, siblings);
  }
  const attach = (route: RouteObject): RouteObject =>
    route.index ? route : { ...route, children: (children.get(route.id) ?? []).map(attach) };
  const tree = (children.get(undefined) ?? []).map(attach);
  return (pathname) => {
    // Single fetch asks for `<path>.data` (the root's data is `/_root.data`).
    const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const matches = matchRoutes(tree, path);
    const last = matches?.[matches.length - 1];
    return last ? templates.get(last.route.id!) : undefined;
  };
}
