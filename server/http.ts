import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { createRequestListener } from "@react-router/node";
import type { ServerBuild } from "react-router";
import proxyAddr from "proxy-addr";
import sirv from "sirv";
import { getEnv } from "#app/utils/env.server.ts";
import { CLIENT_IP_HEADER } from "#app/utils/http.server.ts";
import { log, type LogContext, logContext, runWithLogContext } from "#app/utils/log.server.ts";
import { ApiAccessLog } from "#server/access-log.ts";
import { countBody, declaredTooLarge, refuse, refuseDeclaredTooLarge } from "#server/body-limit.ts";
import { pageRouteMatcher } from "#server/page-routes.ts";
import { observeRequest } from "#server/request-metrics.ts";
import { serveUploads } from "#server/uploads.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

// A hop count trusts that many proxies nearest to us; a list trusts peers by address (proxy-addr).
let trusted: ((address: string, hop: number) => boolean) | undefined;
function trustedProxy(): (address: string, hop: number) => boolean {
  const trust = getEnv().TRUST_PROXY;
  return (trusted ??= typeof trust === "number" ? (_address, hop) => hop < trust : proxyAddr.compile(trust));
}

/**
 * The client's address: the socket's, or with trusted proxies the right-most X-Forwarded-For entry
 * a trusted proxy wrote (entries left of it are whatever the client sent).
 */
function clientAddress(req: IncomingMessage): string {
  // No proxy trusted (the default): the socket's address, without reading X-Forwarded-For at all.
  if (getEnv().TRUST_PROXY === 0) return req.socket.remoteAddress || "unknown";
  return proxyAddr(req, trustedProxy()) || "unknown";
}

let base: Readonly<Record<string, string>> | undefined;
/** What every answer carries (pages add their Content-Security-Policy). */
const baseHeaders = (): Readonly<Record<string, string>> =>
  (base ??= {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    // No page of ours shares its window with another site's, nor uses these devices; payment for Stripe's frames.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": 'camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")',
    ...(getEnv().isProduction ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  });

let baseList: readonly string[] | undefined;
/** The base headers as writeHead takes them fastest: name, value, name, value... */
const baseHeaderList = () => (baseList ??= Object.entries(baseHeaders()).flat());

/** The base headers and the request's id, set on a response that React Router (or a 413) answers. */
function setCommonHeaders(res: ServerResponse, requestId: string) {
  const headers = baseHeaders();
  for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader("Request-Id", requestId);
}

// Extensions answer JSON or text, never a document that loads anything (OWASP's API setting).
const EXTENSION_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * A whole answer of an extension, the base headers and the request's id included, in one writeHead
 * of a flat list on a response with no header set before: Node's fast path (setHeader, or
 * writeHead on a response that has some, validates and merges each header one by one).
 */
export function answer(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const head = [...baseHeaderList()];
  const requestId = logContext()?.requestId;
  if (requestId) head.push("Request-Id", requestId);
  head.push("Content-Security-Policy", EXTENSION_CSP);
  for (const name in headers) head.push(name, headers[name]);
  head.push("Content-Length", String(Buffer.byteLength(body)));
  res.writeHead(status, head);
  res.end(body);
}

type AppHandlers = { statics: Handler[]; build: ServerBuild | (() => Promise<ServerBuild>) };

async function appHandlers(): Promise<AppHandlers> {
  const uploadsDir = resolve(getEnv().DATA_DIR, "uploads");
  mkdirSync(uploadsDir, { recursive: true });
  const mountUploads = serveUploads(uploadsDir);
  if (getEnv().isProduction) {
    const client = resolve(process.cwd(), "build/client");
    const assets = sirv(resolve(client, "assets"), { immutable: true, maxAge: 31536000, gzip: true, brotli: true });
    const mountAssets: Handler = (req, res, next) => {
      if (!req.url?.startsWith("/assets/")) return next();
      const original = req.url;
      req.url = original.slice("/assets".length);
      assets(req, res, () => {
        req.url = original;
        next();
      });
    };
    const files = sirv(client, { maxAge: 3600 });
    const build = (await import(resolve(process.cwd(), "build/server/index.js"))) as ServerBuild;
    return { statics: [mountAssets, files, mountUploads], build };
  }
  // Development: Vite serves the source with hot reloading.
  const vite = await import("vite").then((m) =>
    m.createServer({ server: { middlewareMode: true }, appType: "custom" }),
  );
  return {
    statics: [vite.middlewares as unknown as Handler, mountUploads],
    build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  };
}

// The session cookie, whatever prefix the cookie settings give its name (`__session`, `__Host-session`).
const SESSION_COOKIE = /(?:^|;)\s*[\w-]*session=/i;

/**
 * What React Router answers a signed-in browser (pages, `.data`, redirects, resource routes) is
 * never stored by the browser or a shared cache, whatever the route says.
 */
function neverStoreWhenSignedIn(req: IncomingMessage, res: ServerResponse): void {
  if (!SESSION_COOKIE.test(req.headers.cookie ?? "")) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const headers = args.find((arg) => typeof arg === "object" && arg !== null && !Array.isArray(arg)) as
      Record<string, unknown> | undefined;
    for (const name of Object.keys(headers ?? {})) if (name.toLowerCase() === "cache-control") delete headers![name];
    this.setHeader("Cache-Control", "no-store");
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/** Answers a request itself (through `answer`) and returns true, or returns false to pass it on. */
export type Extension = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** A page request's route template, from the build (the development build can change: looked up each time). */
function pageRoutes(build: AppHandlers["build"]) {
  let matcher: ReturnType<typeof pageRouteMatcher> | undefined;
  return async (pathname: string) => {
    if (typeof build === "function") return pageRouteMatcher((await build()).routes)(pathname);
    return (matcher ??= pageRouteMatcher(build.routes))(pathname);
  };
}

/**
 * One line per page request (route, status, duration) and its metrics. The path is logged without
 * its query, and as its route template when a parameter is a secret (the setup link).
 */
function observePage(
  req: IncomingMessage,
  res: ServerResponse,
  context: LogContext,
  route: ReturnType<typeof pageRoutes>,
) {
  res.once("finish", () => {
    const seconds = (performance.now() - context.startedAt!) / 1000;
    const pathname = (req.url ?? "/").split("?")[0];
    void route(pathname).then((page) => {
      observeRequest(page?.template ?? "unmatched", req.method ?? "GET", res.statusCode, seconds);
      runWithLogContext(context, () =>
        log("info", "http", `${req.method} ${page?.secret ? page.template : pathname} ${res.statusCode}`, {
          ms: Math.round(seconds * 1000),
        }),
      );
    });
  });
}

/** The web server: static files, extensions (e.g. the fast API path), then React Router. */
export async function startHttpServer(extensions: Extension[] = []): Promise<Server> {
  const { statics, build } = await appHandlers();
  const reactRouter = createRequestListener({ build, mode: getEnv().NODE_ENV });
  const pageRoute = pageRoutes(build);
  const accessLog = new ApiAccessLog(getEnv().ACCESS_LOG, getEnv().ACCESS_LOG_SLOW_MS);

  const chain = (req: IncomingMessage, res: ServerResponse, index: number, context: LogContext) => {
    if (index < statics.length) return statics[index](req, res, () => chain(req, res, index + 1, context));
    neverStoreWhenSignedIn(req, res);
    observePage(req, res, context, pageRoute);
    return reactRouter(req, res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, context: LogContext) => {
    try {
      const limit = declaredTooLarge(req);
      if (limit !== null) {
        setCommonHeaders(res, context.requestId!);
        refuse(req, res, limit);
        return;
      }
      for (const extension of extensions) {
        if (await extension(req, res)) {
          // The API names its route in the context; the other extensions answer fixed paths.
          const seconds = (performance.now() - context.startedAt!) / 1000;
          const route = context.route ?? "other";
          observeRequest(route, req.method ?? "GET", res.statusCode, seconds);
          accessLog.record(req.method ?? "GET", route, res.statusCode, Math.round(seconds * 1000));
          return;
        }
      }
      // The extensions' answers carry these headers themselves (answer), the rest gets them here.
      setCommonHeaders(res, context.requestId!);
      countBody(req, res);
      chain(req, res, 0, context);
    } catch (error) {
      log("error", "http", "unexpected error", error);
      if (res.headersSent) res.end();
      else answer(res, 500, { "Content-Type": "text/plain" }, "Internal Server Error");
    }
  };

  const server = createServer((req, res) => {
    delete req.headers[CLIENT_IP_HEADER];
    req.headers[CLIENT_IP_HEADER] = clientAddress(req);
    // Every line logged for this request carries its id; the client gets it (Request-Id) to quote to support.
    const context: LogContext = { requestId: randomUUID(), startedAt: performance.now() };
    // handle() answers its own failures (500).
    void runWithLogContext(context, () => handle(req, res, context));
  });
  // `Expect: 100-continue` (curl's way with large bodies): a body over the limit is refused before it is sent.
  server.on("checkContinue", (req, res) => {
    if (!refuseDeclaredTooLarge(req, res)) {
      res.writeContinue();
      server.emit("request", req, res);
    }
  });
  server.keepAliveTimeout = 65_000;
  // The last window's summary is written when the server stops.
  server.once("close", () => accessLog.flush());
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(getEnv().PORT, getEnv().HOST, () => ready());
  });
  return server;
}

export function stopHttpServer(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      done();
    }, graceMs);
    server.close(() => {
      clearTimeout(timer);
      done();
    });
    server.closeIdleConnections();
  });
}
