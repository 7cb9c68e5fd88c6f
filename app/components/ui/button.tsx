import type { ComponentProps } from "react";
import { Link } from "react-router";
import { cn } from "#app/web/class-names.ts";

const variants = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 hover:text-white shadow-sm",
  secondary: "bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 hover:text-slate-900",
  danger: "bg-red-600 text-white hover:bg-red-700 hover:text-white shadow-sm",
  success: "bg-emerald-600 text-white hover:bg-emerald-700 hover:text-white shadow-sm",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
} as const;
const sizes = { sm: "px-2.5 py-1.5 text-sm", md: "px-4 py-2 text-sm", lg: "px-5 py-2.5 text-base" } as const;

export type ButtonStyle = { variant?: keyof typeof variants; size?: keyof typeof sizes };

export function buttonClass({ variant = "primary", size = "md" }: ButtonStyle = {}, className?: string) {
  return cn(
    "inline-flex items-center justify-center gap-2 rounded-md font-medium no-underline transition-colors",
    "disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50",
    variants[variant],
    sizes[size],
    className,
  );
}

export function Button({
  variant,
  size,
  className,
  type = "button",
  ...props
}: ComponentProps<"button"> & ButtonStyle) {
  return <button type={type} className={buttonClass({ variant, size }, className)} {...props} />;
}

export function ButtonLink({ variant, size, className, ...props }: ComponentProps<typeof Link> & ButtonStyle) {
  return <Link className={buttonClass({ variant, size }, className)} {...props} />;
}
