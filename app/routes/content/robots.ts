import { robotsTxt } from "#app/modules/content/sitemap.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

export function loader() {
  return new Response(robotsTxt(getEnv().appUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
