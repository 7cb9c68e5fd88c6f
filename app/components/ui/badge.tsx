import type { ReactNode } from "react";
import { cn } from "#app/web/class-names.ts";

// The spec's colour names: primary, secondary, danger, success, info, warning.
const tones = {
  primary: "bg-blue-600 text-white",
  secondary: "bg-slate-500 text-white",
  danger: "bg-red-600 text-white",
  success: "bg-emerald-600 text-white",
  info: "bg-cyan-500 text-slate-900",
  warning: "bg-amber-400 text-slate-900",
  neutral: "bg-slate-100 text-slate-700 ring-1 ring-inset ring-slate-200",
} as const;
export type BadgeTone = keyof typeof tones;

export function Badge({
  tone = "neutral",
  children,
  className,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold",
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
