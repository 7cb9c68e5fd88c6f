import type { IncomingMessage, ServerResponse } from "node:http";
import sirv from "sirv";

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

// Only what the package form stores: a server-made name whose extension is the type its bytes were
// checked to be (app/modules/shop/images.server.ts), so the served Content-Type is the sniffed one.
const STORED_IMAGE = /^\/uploads\/packages\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:png|jpg)$/;

/**
 * Serves DATA_DIR/uploads at /uploads: package images only, never sniffed into another type, and
 * inert even if opened as a document (no scripts, no plugins, no same-origin access).
 */
export function serveUploads(dir: string): Handler {
  // dev mode: files uploaded after start are looked up on each request instead of a startup listing.
  const files = sirv(dir, {
    dev: true,
    maxAge: 3600,
    setHeaders: (res) => {
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
    },
  });
  return (req, res, next) => {
    if (!req.url?.startsWith("/uploads/")) return next();
    if (!STORED_IMAGE.test(req.url.split("?")[0])) return next();
    const original = req.url;
    req.url = original.slice("/uploads".length);
    files(req, res, () => {
      req.url = original;
      next();
    });
  };
}
