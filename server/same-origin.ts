import type { IncomingMessage } from "node:http";
import { publicOrigin } from "#app/utils/http.server.ts";
import { answer, type Extension } from "#server/http.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// The REST API authenticates with a bearer key, never a cookie, so a browser cannot forge its calls.
const exempt = (path: string) => path.startsWith("/api/");

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The origin the client reached us at, as the app's pages compute it (forwarded headers only with TRUST_PROXY). */
function ownOrigin(req: IncomingMessage): string {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  return publicOrigin((name) => header(req, name), scheme, header(req, "host"));
}

/** Why a state-changing request must be refused as cross-site, or null when it may go on. */
export function crossSiteReason(req: IncomingMessage): string | null {
  if (SAFE_METHODS.has(req.method ?? "GET") || exempt(req.url ?? "/")) return null;
  const fetchSite = header(req, "sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return `Sec-Fetch-Site: ${fetchSite}`;
  const origin = header(req, "origin");
  if (origin && origin.toLowerCase() !== ownOrigin(req)) return `Origin: ${origin}`;
  return null;
}

/**
 * Refuses cross-site form posts on every route, resource routes included. Browsers send
 * Sec-Fetch-Site and Origin on posts; server-to-server callers (webhooks) send neither.
 */
export const sameOrigin: Extension = (req, res) => {
  const reason = crossSiteReason(req);
  if (!reason) return false;
  answer(
    res,
    403,
    { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    "Cross-site request refused.",
  );
  return true;
};
