import { redirect } from "react-router";
import { ArticlePage } from "#app/components/content/article-page.tsx";
import { articleMeta, GUIDE_PATH } from "#app/modules/content/articles/article.ts";
import { articlePath, findArticle, quickLinks } from "#app/modules/content/articles.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/blog-article";

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? articleMeta(loaderData.article) : []);

export function loader({ params }: Route.LoaderArgs) {
  const article = findArticle(params.slug);
  if (!article) throw notFound();
  // One address per article: other letter cases (the old sidebar's appointment-Confirmation) move here.
  if (params.slug !== article.slug) throw redirect(articlePath(article), 301);
  return { article, path: articlePath(article), quickLinks };
}

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  return (
    <ArticlePage
      article={loaderData.article}
      quickLinks={loaderData.quickLinks}
      currentPath={loaderData.path}
      backTo={GUIDE_PATH}
    />
  );
}
