// The JavaScript each page downloads, gzip-compressed, read from the built app (npm run size prints
// it; tests/e2e/page-weight.spec.ts holds the budget).
// A page loads what React Router's route manifest names for it (build/client/assets/manifest-*.js):
// the entry module and its imports, then each matched route's module and imports (root, then the
// page), all as <link rel="modulepreload">. Chunks reached only by import() (Stripe's form) are not counted.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

/** What a visitor's browser fetches for the home page, in kB of 1,000 bytes (gzip): issue 14's target. */
export const HOME_BUDGET_KB = 100;
/**
 * The home page when React runs there (a toast to show, or analytics on; docs/decisions/016): React,
 * React DOM and React Router alone weigh 108, so this keeps what the app adds to about 12 kB.
 */
export const HYDRATED_HOME_BUDGET_KB = 120;
/** Text only Stripe's loader holds: a chunk with it would fetch Stripe's script. */
export const STRIPE_MARKER = "js.stripe.com";

type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  hasDefaultExport: boolean;
};
type RouteManifest = { entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> };

export type PageJs = {
  routeId: string;
  path: string;
  files: { url: string; gzipBytes: number }[];
  gzipBytes: number;
  loadsStripe: boolean;
};

export const gzipSize = (code: string | Buffer) => gzipSync(code).length;

function readRouteManifest(clientDir: string): RouteManifest {
  const assets = join(clientDir, "assets");
  const [newest] = readdirSync(assets)
    .filter((name) => /^manifest-[0-9a-f]+\.js$/.test(name))
    .map((name) => join(assets, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!newest) throw new Error(`No route manifest in ${assets}: run npx react-router build first`);
  const text = readFileSync(newest, "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as RouteManifest;
}

/** The URL path a route answers, e.g. "/order/orderDetails/:id" ("/" for the home page). */
function fullPath(manifest: RouteManifest, route: ManifestRoute): string {
  const parts: string[] = [];
  for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
  }
  return `/${parts.join("/")}`;
}

/** Every page (a route that renders something) with the JavaScript the browser loads to show it. */
export function pagesJs(clientDir = resolve("build/client")): PageJs[] {
  const manifest = readRouteManifest(clientDir);
  const sizes = new Map<string, { gzipBytes: number; stripe: boolean }>();
  const measure = (url: string) => {
    let size = sizes.get(url);
    if (!size) {
      const code = readFileSync(join(clientDir, url));
      size = { gzipBytes: gzipSize(code), stripe: code.includes(STRIPE_MARKER) };
      sizes.set(url, size);
    }
    return size;
  };
  const parents = new Set(Object.values(manifest.routes).map((r) => r.parentId));
  return Object.values(manifest.routes)
    .filter((route) => route.hasDefaultExport && !parents.has(route.id))
    .map((route) => {
      const chain: ManifestRoute[] = [];
      for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
        chain.unshift(r);
      const urls = new Set([
        manifest.entry.module,
        ...manifest.entry.imports,
        ...chain.flatMap((r) => [r.module, ...(r.imports ?? [])]),
      ]);
      const files = [...urls].map((url) => ({ url, gzipBytes: measure(url).gzipBytes }));
      return {
        routeId: route.id,
        path: fullPath(manifest, route),
        files,
        gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
        loadsStripe: [...urls].some((url) => measure(url).stripe),
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

export const kB = (bytes: number) => (bytes / 1000).toFixed(1);

/** One line per page, largest first, then the home page's files. */
export function sizeReport(pages: PageJs[]): string {
  const home = pages.find((p) => p.path === "/");
  const lines = [...pages]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map(
      (p) =>
        `${kB(p.gzipBytes).padStart(7)} kB  ${String(p.files.length).padStart(2)} files  ${p.path}${p.loadsStripe ? "  (loads Stripe)" : ""}`,
    );
  const homeFiles = home
    ? [...home.files]
        .sort((a, b) => b.gzipBytes - a.gzipBytes)
        .map((f) => `${kB(f.gzipBytes).padStart(7)} kB  ${f.url}`)
    : [];
  return [
    "JavaScript per page (gzip, kB = 1,000 bytes; entry + matched routes + their imports):",
    ...lines,
    "",
    `Home page when React runs there (a toast, analytics): ${home ? kB(home.gzipBytes) : "?"} kB (budget ${HYDRATED_HOME_BUDGET_KB} kB);`,
    `a plain visit gets plain HTML and /enhance/auto-submit.js (budget ${HOME_BUDGET_KB} kB):`,
    ...homeFiles,
  ].join("\n");
}
