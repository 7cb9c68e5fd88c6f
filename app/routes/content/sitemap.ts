import { sitemapXml } from "#app/modules/content/sitemap.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

export function loader() {
  return new Response(sitemapXml(getEnv().appUrl), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
