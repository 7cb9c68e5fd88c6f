import { GUIDE_PATH } from "#app/modules/content/articles/article.ts";
import { articlePath, articles } from "#app/modules/content/articles.server.ts";

/** The site's public pages, in the order a visitor meets them. */
export const PUBLIC_PATHS = [
  "/",
  "/register",
  GUIDE_PATH,
  ...articles.map(articlePath),
  "/sms/contact",
  "/sms/termsandconditions",
  "/docs/api",
];

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function sitemapXml(origin: string): string {
  const urls = PUBLIC_PATHS.map((path) => `  <url><loc>${escapeXml(origin + path)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Disallow: /admin/", "Disallow: /sms/support", `Sitemap: ${origin}/sitemap.xml`, ""].join(
    "\n",
  );
}
