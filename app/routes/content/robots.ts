import { publicOrigin, robotsTxt } from "#app/modules/content/sitemap.server.ts";
import type { Route } from "./+types/robots";

export function loader({ request }: Route.LoaderArgs) {
  return new Response(robotsTxt(publicOrigin(request)), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
