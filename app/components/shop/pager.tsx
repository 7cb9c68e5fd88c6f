import { Link } from "react-router";
import { buttonClass } from "../ui/button.tsx";

function PagerLink({ to, label }: { to: string | null; label: string }) {
  const className = buttonClass({ variant: "secondary", size: "sm" });
  // A disabled link is not a link: a real disabled button, so keyboards and screen readers skip it.
  if (!to) {
    return (
      <button type="button" disabled className={className}>
        {label}
      </button>
    );
  }
  return (
    <Link to={to} className={className}>
      {label}
    </Link>
  );
}

/** Previous / Next as plain links carrying the whole URL state, so paging works without JavaScript. */
export function Pager({ previous, next, summary }: { previous: string | null; next: string | null; summary?: string }) {
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600">{summary}</p>
      <div className="flex gap-2">
        <PagerLink to={previous} label="Previous" />
        <PagerLink to={next} label="Next" />
      </div>
    </nav>
  );
}
