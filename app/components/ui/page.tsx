import type { ReactNode } from "react";
import { cn } from "#app/web/class-names.ts";

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        {subtitle ? <p className="text-sm font-medium text-brand-600">{subtitle}</p> : null}
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <section className={cn("rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200", className)}>{children}</section>
  );
}

export function Notice({
  tone = "info",
  children,
  className,
}: {
  tone?: "info" | "warning" | "danger" | "success";
  children: ReactNode;
  className?: string;
}) {
  const styles = {
    info: "bg-brand-50 text-brand-900 ring-brand-100",
    warning: "bg-amber-50 text-amber-900 ring-amber-200",
    danger: "bg-red-50 text-red-700 ring-red-200",
    success: "bg-emerald-50 text-emerald-900 ring-emerald-200",
  }[tone];
  return <div className={cn("rounded-md px-4 py-3 text-sm ring-1 ring-inset", styles, className)}>{children}</div>;
}

export function Spinner({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-block h-5 w-5 animate-spin rounded-full border-2 border-current border-t-transparent",
        className,
      )}
    />
  );
}
