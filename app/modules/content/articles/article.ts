// Browser-safe shapes of the static content (blog articles, terms); the texts live in typed files.

/**
 * A paragraph is a plain string; `[label](/path)` inside it becomes a link. Lists, code samples
 * and call-outs are objects.
 */
export type Block = string | { list: string[]; ordered?: boolean } | { code: string } | { note: string };

export type Section = { id: string; heading: string; blocks: Block[] };

export type Article = {
  slug: string;
  title: string;
  /** One or two sentences: the page's meta description and the lead under the title. */
  description: string;
  sections: Section[];
};

/** Where the long guide lives; it is the blog's entry page. */
export const GUIDE_PATH = "/sms/blog";

export type QuickLink = { href: string; title: string };

export function articleMeta(article: Pick<Article, "title" | "description">) {
  return [
    { title: `${article.title} | SMS Gateway Blog` },
    { name: "description", content: article.description },
    { property: "og:title", content: article.title },
    { property: "og:description", content: article.description },
    { property: "og:type", content: "article" },
  ];
}
