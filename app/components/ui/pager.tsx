import { Link } from "react-router";
import { buttonClass } from "./button.tsx";

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
  const style = buttonClass({ variant: "secondary", size: "sm" });
  const disabled = (text: string) => (
    <span aria-disabled="true" className={style}>
      {text}
    </span>
  );
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-4">
      {previousHref ? (
        <Link to={previousHref} className={style} rel="prev">
          Previous
        </Link>
      ) : (
        disabled("Previous")
      )}
      <span className="text-sm text-slate-600">
        Page {page} of {totalPages}
      </span>
      {nextHref ? (
        <Link to={nextHref} className={style} rel="next">
          Next
        </Link>
      ) : (
        disabled("Next")
      )}
    </nav>
  );
}
