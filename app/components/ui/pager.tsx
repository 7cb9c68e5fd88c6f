import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "./button.tsx";

/** One pager step ("Previous", "Next"): a link, or without `to` the same button look marked aria-disabled. */
export function PagerStep({ to, rel, children }: { to: string | null; rel?: "prev" | "next"; children: ReactNode }) {
  const style = buttonClass({ variant: "secondary", size: "sm" });
  if (!to) {
    return (
      <span aria-disabled="true" className={style}>
        {children}
      </span>
    );
  }
  return (
    <Link to={to} className={style} rel={rel}>
      {children}
    </Link>
  );
}

/** Previous / next links with the page in the URL, so paging works without JavaScript. */
export function Pager({
  page,
  totalPages,
  previousHref,
  nextHref,
  label = "Pagination",
}: {
  page: number;
  totalPages: number;
  previousHref: string | null;
  nextHref: string | null;
  label?: string;
}) {
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-4">
      <PagerStep to={previousHref} rel="prev">
        Previous
      </PagerStep>
      <span className="text-sm text-slate-600">
        Page {page} of {totalPages}
      </span>
      <PagerStep to={nextHref} rel="next">
        Next
      </PagerStep>
    </nav>
  );
}
