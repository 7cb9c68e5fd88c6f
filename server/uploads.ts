import type { IncomingMessage, ServerResponse } from "node:http";
import sirv from "sirv";
import { log } from "#app/utils/log.server.ts";
import { isStoredImageName, readStoredImage } from "#app/modules/shop/images.server.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const PACKAGES = "/uploads/packages/";
// Served inert even if opened as a document: no scripts, no plugins, no same-origin access.
const INERT = { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox" };

/**
 * Serves package images at /uploads/packages/<uuid>.png|jpg: only names the package form makes
 * (app/modules/shop/images.server.ts), from the database with the type their bytes were checked to
 * be, or else from DATA_DIR/uploads, where images were files before decision 132.
 */
export function serveUploads(dir: string): Handler {
  // dev mode: files are looked up on each request instead of a startup listing.
  const files = sirv(dir, {
    dev: true,
    maxAge: 3600,
    setHeaders: (res) => {
      for (const [name, value] of Object.entries(INERT)) res.setHeader(name, value);
    },
  });
  const fromFile: Handler = (req, res, next) => {
    const original = req.url!;
    req.url = original.slice("/uploads".length);
    files(req, res, () => {
      req.url = original;
      next();
    });
  };
  return (req, res, next) => {
    const path = req.url?.split("?")[0] ?? "";
    if (!path.startsWith(PACKAGES) || !isStoredImageName(path.slice(PACKAGES.length))) return next();
    readStoredImage(path.slice(PACKAGES.length)).then(
      (image) => {
        if (!image) return fromFile(req, res, next);
        res.writeHead(200, {
          ...INERT,
          "Content-Type": image.contentType,
          "Content-Length": image.bytes.byteLength,
          "Last-Modified": image.createdAt.toUTCString(),
          // A name's bytes never change; a removed image may show for up to an hour where it was seen.
          "Cache-Control": "public, max-age=3600",
        });
        res.end(req.method === "HEAD" ? undefined : image.bytes);
      },
      (error: unknown) => {
        log("error", "http", "reading a stored image failed", error);
        if (res.headersSent) res.end();
        else res.writeHead(500, { "Content-Type": "text/plain" }).end("Internal Server Error");
      },
    );
  };
}
