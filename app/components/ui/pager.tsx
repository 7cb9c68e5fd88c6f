import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "#app/components/ui/button.tsx";

function PagerStep({ to, rel, children }: { to: string | null; rel: "prev" | "next"; children: ReactNode }) {
  const className = buttonClass({ variant: "secondary", size: "sm" });
  // A step with nowhere to go is not a link: a real disabled button (the spec's disabled Previous /
  // Next), which keyboards and screen readers skip.
  if (!to) {
    return (
      <button type="button" disabled className={className}>
        {children}
      </button>
    );
  }
  return (
    <Link to={to} className={className} rel={rel}>
      {children}
    </Link>
  );
}

/**
 * Previous / Next as plain links carrying the whole URL state, so paging works without JavaScript;
 * a null href disables the step. `summary` says where the list is ("Page 2 of 5").
 */
export function Pager({
  previous,
  next,
  summary,
  label = "Pagination",
}: {
  previous: string | null;
  next: string | null;
  summary: ReactNode;
  label?: string;
}) {
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600">{summary}</p>
      <div className="flex gap-2">
        <PagerStep to={previous} rel="prev">
          Previous
        </PagerStep>
        <PagerStep to={next} rel="next">
          Next
        </PagerStep>
      </div>
    </nav>
  );
}

/**
 * The Pager of a numbered list: page `page` of `totalPages`, `href(n)` the URL of page n (by
 * default `?page=n`); the summary says "Page 2 of 5", then `count` ("12 accounts") when given.
 */
export function NumberedPager({
  page,
  totalPages,
  href = (n) => `?page=${n}`,
  count,
  summary,
  label,
}: {
  page: number;
  totalPages: number;
  href?: (page: number) => string;
  count?: string;
  summary?: ReactNode;
  label?: string;
}) {
  return (
    <Pager
      previous={page > 1 ? href(page - 1) : null}
      next={page < totalPages ? href(page + 1) : null}
      summary={summary ?? `Page ${page} of ${totalPages}${count ? ` · ${count}` : ""}`}
      label={label}
    />
  );
}
