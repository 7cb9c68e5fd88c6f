import { href, NavLink } from "react-router";
import { cn } from "#app/web/class-names.ts";

const links = [
  { to: href("/account/two-factor"), label: "Two-factor authentication" },
  { to: href("/account/sessions"), label: "Sessions" },
  { to: href("/sms/apiToken"), label: "API keys" },
];

/** The account's security pages, linked from each of them. */
export function SecurityNav() {
  return (
    <nav aria-label="Security" className="mb-6">
      <h2 className="mb-2 text-sm font-semibold text-slate-600">Security</h2>
      <ul className="flex flex-wrap gap-2">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end
              className={({ isActive }) =>
                cn(
                  "block rounded-md px-3 py-1.5 text-sm font-medium no-underline ring-1 ring-slate-200",
                  isActive ? "bg-brand-50 text-brand-700" : "bg-white text-slate-700 hover:bg-slate-50",
                )
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
