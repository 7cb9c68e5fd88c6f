import { useEffect, useRef } from "react";
import { href, Link } from "react-router";
import type { Article, QuickLink } from "#app/modules/content/articles/article.ts";
import { cn } from "#app/web/class-names.ts";
import { BackButton } from "#app/components/ui/back-button.tsx";
import { buttonClass } from "#app/components/ui/button.tsx";
import { Sections } from "#app/components/content/rich-text.tsx";

const TOGGLE_ID = "quick-links-toggle";

function QuickLinksPanel({ links, currentPath }: { links: QuickLink[]; currentPath: string }) {
  return (
    <aside
      id="quick-links"
      aria-labelledby="quick-links-heading"
      className={cn(
        "quick-links-panel hidden peer-checked:block",
        "fixed inset-y-0 right-0 z-40 w-80 max-w-[85vw] overflow-y-auto bg-white p-5 shadow-xl",
        "lg:sticky lg:inset-auto lg:top-6 lg:z-auto lg:max-h-[calc(100vh-3rem)] lg:w-72 lg:max-w-none lg:shrink-0 lg:self-start lg:rounded-lg lg:shadow-sm lg:ring-1 lg:ring-slate-200",
      )}
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id="quick-links-heading" className="text-base font-semibold text-slate-900">
          Quick Links
        </h2>
        {/* A second way to close for pointer users (keyboard users toggle the checkbox itself). The
            cross is drawn by CSS: any text here would join the checkbox's accessible name. */}
        <label
          htmlFor={TOGGLE_ID}
          aria-hidden="true"
          data-testid="quick-links-close"
          className="quick-links-close relative h-8 w-8 shrink-0 cursor-pointer rounded text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        />
      </div>
      <ul className="space-y-1">
        {links.map((link) => (
          <li key={link.href}>
            <Link
              to={link.href}
              aria-current={link.href === currentPath ? "page" : undefined}
              className="block rounded px-2 py-1.5 text-sm leading-snug text-slate-700 no-underline hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:bg-brand-50 aria-[current=page]:font-medium aria-[current=page]:text-brand-700"
            >
              {link.title}
            </Link>
          </li>
        ))}
      </ul>
    </aside>
  );
}

function TableOfContents({ article }: { article: Article }) {
  return (
    <nav aria-labelledby="toc-heading" className="mt-8 rounded-lg bg-white p-5 ring-1 ring-slate-200">
      <h2 id="toc-heading" className="text-base font-semibold text-slate-900">
        Contents
      </h2>
      <ol className="mt-3 list-decimal space-y-1 pl-6 text-sm">
        {article.sections.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`}>{s.heading}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * An article with the Quick Links sidebar. A checkbox holds the sidebar's state, so the toggle
 * (its labels read Close or Open by CSS), the backdrop and the close button work without
 * JavaScript; it starts checked, i.e. open, on every article.
 */
export function ArticlePage({
  article,
  quickLinks,
  currentPath,
  backTo,
  withContents = false,
}: {
  article: Article;
  quickLinks: QuickLink[];
  currentPath: string;
  backTo: string;
  withContents?: boolean;
}) {
  const toggle = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape" && toggle.current?.checked) toggle.current.checked = false;
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, []);
  return (
    <div className="relative lg:flex lg:gap-8">
      <input
        key={currentPath}
        ref={toggle}
        id={TOGGLE_ID}
        type="checkbox"
        defaultChecked
        aria-controls="quick-links"
        className="quick-links-state peer sr-only"
      />
      <label
        htmlFor={TOGGLE_ID}
        aria-hidden="true"
        data-testid="quick-links-backdrop"
        className="quick-links-backdrop fixed inset-0 z-30 hidden bg-slate-900/40 max-lg:peer-checked:block"
      />
      <article className="mx-auto max-w-3xl min-w-0 flex-1">
        <div className="mb-6 flex flex-wrap items-center gap-2">
          <BackButton fallback={backTo} />
          <label
            htmlFor={TOGGLE_ID}
            className={buttonClass({ variant: "secondary" }, "quick-links-toggle cursor-pointer select-none")}
          >
            <span className="quick-links-when-open">Close Quick Links</span>
            <span className="quick-links-when-closed">Open Quick Links</span>
          </label>
        </div>
        <header>
          <p className="text-sm font-medium text-brand-600">SMS Gateway Blog</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{article.title}</h1>
          <p className="mt-4 text-lg leading-8 text-slate-600">{article.description}</p>
        </header>
        {withContents ? <TableOfContents article={article} /> : null}
        <Sections sections={article.sections} />
        <div className="mt-12 rounded-lg bg-brand-50 p-6 ring-1 ring-brand-100">
          <h2 className="text-lg font-semibold text-slate-900">Start sending with SMS Gateway</h2>
          <p className="mt-2 text-sm leading-6 text-slate-700">
            Send single, group and scheduled messages, follow every delivery and connect your software through the API.
          </p>
          <a
            href={href("/register")}
            target="_blank"
            rel="noopener"
            className={buttonClass({ variant: "primary" }, "mt-4")}
          >
            Create your free account<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </article>
      <QuickLinksPanel links={quickLinks} currentPath={currentPath} />
    </div>
  );
}
