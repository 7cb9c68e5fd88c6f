import { describe, expect, it } from "vitest";
import type { Article, Block } from "#app/modules/content/articles/article.ts";
import { articlePath, articles, findArticle, quickLinks } from "#app/modules/content/articles.server.ts";
import { guide } from "#app/modules/content/articles/ultimate-guide.ts";
import { termsSections } from "#app/modules/content/terms.ts";
import { PUBLIC_PATHS } from "#app/modules/content/sitemap.server.ts";

const textOf = (block: Block): string =>
  typeof block === "string"
    ? block
    : "list" in block
      ? block.list.join(" ")
      : "code" in block
        ? block.code
        : block.note;
const wordsOf = (article: Article) =>
  [article.description, ...article.sections.flatMap((s) => [s.heading, ...s.blocks.map(textOf)])].join(" ").split(/\s+/)
    .length;
const linksOf = (sections: Article["sections"]) =>
  sections
    .flatMap((s) => s.blocks.map(textOf))
    .flatMap((text) => [...text.matchAll(/\]\((\/[^)\s]*)\)/g)].map((m) => m[1]));

describe("blog content", () => {
  it("has the spec's 13 articles plus the guide, each a real article with unique anchors", () => {
    expect(articles).toHaveLength(13);
    for (const article of [...articles, guide]) {
      expect(wordsOf(article), article.slug).toBeGreaterThanOrEqual(article === guide ? 1500 : 450);
      const ids = article.sections.map((s) => s.id);
      expect(new Set(ids).size, article.slug).toBe(ids.length);
      expect(article.description.length, article.slug).toBeLessThanOrEqual(200);
    }
  });

  it("finds articles whatever the letter case of the slug", () => {
    expect(findArticle("appointment-Confirmation")?.slug).toBe("appointment-confirmation");
    expect(findArticle("HIRING-SMARTER")?.slug).toBe("hiring-smarter");
    expect(findArticle("no-such-article")).toBeUndefined();
  });

  it("lists every article once in the Quick Links", () => {
    const hrefs = quickLinks.map((l) => l.href);
    expect(new Set(hrefs).size).toBe(hrefs.length);
    expect(hrefs).toEqual(["/sms/blog", ...articles.map(articlePath)]);
  });

  it("links only to pages that exist", () => {
    const known = new Set([...PUBLIC_PATHS, "/sms/contact"]);
    for (const link of [...articles, guide].flatMap((a) => linksOf(a.sections)).concat(linksOf(termsSections))) {
      expect(known.has(link), link).toBe(true);
    }
  });

  it("keeps the editorial claims the spec's blog cites", () => {
    const all = [...articles, guide].map((a) => a.sections.flatMap((s) => s.blocks.map(textOf)).join(" ")).join(" ");
    for (const claim of [
      "98%",
      "within 3 minutes",
      "before 8 AM or after 9 PM",
      "24 months",
      "160",
      "153",
      "70",
      "67",
    ]) {
      expect(all, claim).toContain(claim);
    }
  });
});

describe("terms and conditions", () => {
  it("has the nine sections in order", () => {
    expect(termsSections.map((s) => s.heading)).toEqual([
      "1. Introduction",
      "2. Use of Services",
      "3. Account Registration",
      "4. Message Delivery",
      "5. Fees and Payments",
      "6. Privacy",
      "7. Limitation of Liability",
      "8. Changes to These Terms",
      "9. Contact Us",
    ]);
  });
});
