import { publicOrigin, sitemapXml } from "#app/modules/content/sitemap.server.ts";
import type { Route } from "./+types/sitemap";

export function loader({ request }: Route.LoaderArgs) {
  return new Response(sitemapXml(publicOrigin(request)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
