import type { ComponentProps, ReactNode } from "react";
import { cn } from "#app/web/class-names.ts";

export function Table({ className, children, ...props }: ComponentProps<"table">) {
  // Relative: the sr-only text of a scrolled cell stays inside the scroller instead of widening the page.
  return (
    <div className="relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className={cn("min-w-full divide-y divide-slate-200 text-sm", className)} {...props}>
        {children}
      </table>
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      scope="col"
      className={cn(
        "bg-slate-50 px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase",
        className,
      )}
      {...props}
    />
  );
}

/** The header of a column of row buttons: named for screen readers, blank on screen. */
export function ActionsTh() {
  return (
    <Th>
      <span className="sr-only">Actions</span>
    </Th>
  );
}

export function Td({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-4 py-3 align-top text-slate-800", className)} {...props} />;
}

/** A table cell that, on a phone, stacks under its row's other cells with its column name beside it. */
export function LabelledCell({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Td className={cn("flex gap-3 py-1 sm:table-cell sm:py-3", className)}>
      <span
        aria-hidden="true"
        className="w-32 shrink-0 pt-0.5 text-xs font-semibold whitespace-normal [overflow-wrap:anywhere] text-slate-500 uppercase sm:hidden"
      >
        {label}
      </span>
      <div className="min-w-0">{children}</div>
    </Td>
  );
}
