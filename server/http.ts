import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { createRequestListener } from "@react-router/node";
import type { ServerBuild } from "react-router";
import sirv from "sirv";
import { env } from "../app/utils/env.server.ts";
import { CLIENT_IP_HEADER } from "../app/utils/http.server.ts";
import { serveUploads } from "./uploads.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

function clientAddress(req: IncomingMessage): string {
  if (env.TRUST_PROXY) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "unknown";
}

function setBaseHeaders(res: ServerResponse) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  if (env.isProduction) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

async function appHandlers(): Promise<{ statics: Handler[]; build: ServerBuild | (() => Promise<ServerBuild>) }> {
  const uploadsDir = resolve(env.DATA_DIR, "uploads");
  mkdirSync(uploadsDir, { recursive: true });
  const mountUploads = serveUploads(uploadsDir);
  if (env.isProduction) {
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

export type Extension = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** The web server: static files, extensions (e.g. the fast API path), then React Router. */
export async function startHttpServer(extensions: Extension[] = []): Promise<Server> {
  const { statics, build } = await appHandlers();
  const reactRouter = createRequestListener({ build, mode: env.NODE_ENV });

  const chain = (req: IncomingMessage, res: ServerResponse, index: number) => {
    if (index < statics.length) return statics[index](req, res, () => chain(req, res, index + 1));
    return reactRouter(req, res);
  };

  const server = createServer(async (req, res) => {
    delete req.headers[CLIENT_IP_HEADER];
    req.headers[CLIENT_IP_HEADER] = clientAddress(req);
    setBaseHeaders(res);
    try {
      for (const extension of extensions) if (await extension(req, res)) return;
      chain(req, res, 0);
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error");
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(env.PORT, env.HOST, () => ready());
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
