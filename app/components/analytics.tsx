import { useEffect } from "react";
import { type Params, useLocation, useParams } from "react-router";

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

/** Route parameters that are secrets (the token of a reset, setup or verification link). */
const SECRET_PARAMS = ["token"];

/** The path analytics may see: each secret segment replaced by its name (`/reset-password/:token`). */
export function analyticsPagePath(pathname: string, params: Params): string {
  const secrets = new Map(SECRET_PARAMS.filter((name) => params[name]).map((name) => [params[name], `:${name}`]));
  return pathname
    .split("/")
    .map((segment) => secrets.get(decodeSegment(segment)) ?? segment)
    .join("/");
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Optional page-view analytics: loads only when ANALYTICS_ID is configured, one event per route change. */
export function Analytics({ id }: { id: string | null }) {
  const { pathname } = useLocation();
  const params = useParams();
  useEffect(() => {
    if (!id || window.gtag) return;
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    window.gtag("js", new Date());
    // gtag would send the full address and referrer otherwise: a same-site referrer may be a reset link.
    const referrer = document.referrer.startsWith(`${window.location.origin}/`)
      ? window.location.origin
      : document.referrer;
    window.gtag("config", id, {
      send_page_view: false,
      page_location: window.location.origin,
      page_referrer: referrer,
    });
    const script = document.createElement("script");
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
    document.head.appendChild(script);
  }, [id]);
  // No query string: it carries ids, search text and payment session ids.
  const pagePath = analyticsPagePath(pathname, params);
  useEffect(() => {
    if (!id) return;
    window.gtag?.("event", "page_view", { page_path: pagePath, page_location: `${window.location.origin}${pagePath}` });
  }, [id, pagePath]);
  return null;
}
