import { useEffect } from "react";
import { useLocation } from "react-router";

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

/** Optional page-view analytics: loads only when ANALYTICS_ID is configured, one event per route change. */
export function Analytics({ id }: { id: string | null }) {
  const location = useLocation();
  useEffect(() => {
    if (!id || window.gtag) return;
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    window.gtag("js", new Date());
    window.gtag("config", id, { send_page_view: false });
    const script = document.createElement("script");
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
    document.head.appendChild(script);
  }, [id]);
  useEffect(() => {
    if (!id) return;
    window.gtag?.("event", "page_view", { page_path: location.pathname + location.search });
  }, [id, location.pathname, location.search]);
  return null;
}
