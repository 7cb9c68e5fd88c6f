import { ArticlePage } from "#app/components/content/article-page.tsx";
import { articleMeta, GUIDE_PATH } from "#app/modules/content/articles/article.ts";
import { quickLinks } from "#app/modules/content/articles.server.ts";
import { guide } from "#app/modules/content/articles/ultimate-guide.ts";
import type { Route } from "./+types/blog";

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? articleMeta(loaderData.article) : []);

export function loader() {
  return { article: guide, quickLinks };
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  return (
    <ArticlePage
      article={loaderData.article}
      quickLinks={loaderData.quickLinks}
      currentPath={GUIDE_PATH}
      backTo="/"
      withContents
    />
  );
}
