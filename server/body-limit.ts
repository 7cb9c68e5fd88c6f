import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_IMAGE_BYTES } from "#app/modules/shop/packages.ts";
import { getEnv } from "#app/utils/env.server.ts";

/**
 * The two uploads read their own, larger limit while the file streams in and answer a too-large file
 * with a message next to the field; the server's cap sits one ordinary body above that limit.
 */
const UPLOADS: { path: RegExp; maxBytes: () => number }[] = [
  { path: /^\/sms\/importcontacts(?:\.data)?$/, maxBytes: () => getEnv().CSV_IMPORT_MAX_BYTES },
  { path: /^\/menuitem\/menuitemupsert(?:\/[^/]*)?(?:\.data)?$/, maxBytes: () => MAX_IMAGE_BYTES },
];

/** The largest body a request to this URL may carry (routes match case-insensitively, as React Router's do). */
export function bodyLimit(url: string): number {
  const path = url.split("?")[0].toLowerCase();
  const upload = UPLOADS.find((u) => u.path.test(path));
  return upload ? upload.maxBytes() + getEnv().MAX_BODY_BYTES : getEnv().MAX_BODY_BYTES;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Request too large | SMS Gateway</title></head>
<body><h1>Request too large</h1><p>What you sent is larger than this site accepts. Go back, shorten it or choose a smaller file, and try again.</p><p><a href="/">Home</a></p></body></html>
`;

// After a 413 the rest of the body is read and dropped (so the client sees the answer rather than a
// reset connection), for this long at most.
const DRAIN_MS = 5_000;

/** 413; what is left of the body is read away without being kept, and the connection closed if that takes too long. */
export function refuse(req: IncomingMessage, res: ServerResponse, limit: number): void {
  const api = (req.url ?? "").startsWith("/api/");
  const body = api
    ? JSON.stringify({ error: { code: "payload_too_large", message: `The body may be at most ${limit} bytes` } })
    : PAGE;
  res.writeHead(413, {
    "Content-Type": api ? "application/json" : "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Cache-Control": "no-store",
    "Content-Length": String(Buffer.byteLength(body)),
  });
  res.end(body);
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_MS).unref();
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

/** The limit a request's declared body is larger than, or null when it declares no more than its route accepts. */
export function declaredTooLarge(req: IncomingMessage): number | null {
  const limit = bodyLimit(req.url ?? "/");
  return Number(req.headers["content-length"]) > limit ? limit : null;
}

/** True when the request declares a body larger than its route accepts; it has been answered 413. */
export function refuseDeclaredTooLarge(req: IncomingMessage, res: ServerResponse): boolean {
  const limit = declaredTooLarge(req);
  if (limit === null) return false;
  refuse(req, res, limit);
  return true;
}

/**
 * Counts the body as it is read (a chunked body declares no length) and answers 413 the moment it
 * passes the route's limit, so at most that much is ever held. Whoever was reading it (React Router's
 * body stream) is told the request was aborted and sees neither another chunk nor the end, so an
 * action never runs on a cut-off form.
 */
export function countBody(req: IncomingMessage, res: ServerResponse): void {
  const limit = bodyLimit(req.url ?? "/");
  let received = 0;
  let over = false;
  const emit = req.emit;
  req.emit = function (this: IncomingMessage, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "data" && !over) {
      received += (args[0] as Buffer).length;
      if (received > limit) {
        over = true;
        // The reader gives up first (React Router aborts the request: no action, no error page, no log).
        emit.call(this, "aborted");
        if (res.headersSent) req.socket.destroy();
        else refuse(req, res, limit);
      }
    }
    if (over && (event === "data" || event === "end")) return false;
    return emit.call(this, event, ...args);
  } as IncomingMessage["emit"];
}
