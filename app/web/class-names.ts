/** The class names that apply, joined for a `className` attribute: `cn("btn", active && "btn-active")`. */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
