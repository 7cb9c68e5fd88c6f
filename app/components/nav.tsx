import { Form, href, Link, NavLink, useLocation } from "react-router";
import { formatNumber } from "#app/utils/misc.ts";
import { cn } from "#app/web/class-names.ts";
import { buttonClass } from "#app/components/ui/button.tsx";

export type NavUser = { id: number; fullName: string; role: "customer" | "admin" };

// Four links keep the spec's own casing (paths match case-insensitively), which href() does not type.
const controlPanelLinks = [
  { to: href("/sms/dashboard"), label: "Dashboard" },
  { to: href("/sms/sendSms"), label: "Send SMS" },
  { to: href("/sms/scheduleSms"), label: "Schedule SMS" },
  { to: href("/sms/scheduled"), label: "Scheduled SMS" },
  { to: href("/sms/templates"), label: "Templates" },
  { to: href("/sms/messageHistory"), label: "Message History" },
  { to: href("/sms/campaigns"), label: "Campaigns" },
  { to: href("/sms/createContact"), label: "Create New Contact" },
  { to: "/sms/CreateGroup", label: "Create New Group" },
  { to: "/sms/AccountContacts", label: "Contacts" },
  { to: "/sms/AccountGroups", label: "Groups" },
  { to: href("/sms/senders"), label: "Senders" },
  { to: href("/sms/optOuts"), label: "Opt-outs" },
  { to: href("/sms/apiToken"), label: "API Token (OAuth)" },
  { to: href("/sms/webhooks"), label: "Webhooks" },
  { to: href("/account/two-factor"), label: "Security" },
  { to: "/order/myorders", label: "Orders" },
  { to: href("/sms/documentation"), label: "API Documentation" },
];

export const adminLinks = [
  { to: href("/admin"), label: "Overview" },
  { to: href("/order/allOrders"), label: "All Orders" },
  { to: href("/menuItem/menuitemlist"), label: "Menu Items" },
  { to: href("/admin/support"), label: "Support Inbox" },
  { to: href("/admin/users"), label: "Accounts & Credits" },
  { to: href("/admin/senders"), label: "Senders" },
  { to: href("/admin/upstreams"), label: "Upstreams" },
  { to: href("/admin/routes"), label: "Routes" },
  { to: href("/admin/prices"), label: "Prices" },
  { to: href("/admin/mail"), label: "Mail" },
  { to: href("/admin/inbound"), label: "Unassigned Inbound SMS" },
];

const menuItemClass =
  "block rounded px-3 py-2 text-sm text-slate-700 no-underline hover:bg-slate-100 hover:text-slate-900";
const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded px-2 py-1 text-sm font-medium no-underline",
    isActive ? "text-brand-700" : "text-slate-700 hover:text-slate-900",
  );

/** A dropdown that opens without JavaScript; keyed by location so it closes after navigating. */
function Menu({ label, links }: { label: string; links: { to: string; label: string }[] }) {
  const location = useLocation();
  return (
    <details key={location.key} className="group relative">
      <summary className="flex cursor-pointer items-center gap-1 rounded px-2 py-1 text-sm font-medium text-slate-700 select-none hover:text-slate-900">
        {label}
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 transition-transform group-open:rotate-180">
          <path
            fill="currentColor"
            d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z"
          />
        </svg>
      </summary>
      <ul className="absolute left-0 z-40 mt-2 w-56 rounded-md bg-white p-1 shadow-lg ring-1 ring-slate-200">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={menuItemClass}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

function CartLink({ count }: { count: number }) {
  return (
    <Link
      to={href("/shoppingCart")}
      aria-label={`Shopping cart, ${count} ${count === 1 ? "item" : "items"}`}
      className="relative inline-flex items-center gap-1 rounded px-2 py-1 text-slate-700 no-underline hover:text-slate-900"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-6 w-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path
          d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.6L21 7H6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="10" cy="20" r="1.3" />
        <circle cx="17" cy="20" r="1.3" />
      </svg>
      <span data-testid="cart-count" className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">
        {count}
      </span>
    </Link>
  );
}

export function Nav({
  user,
  balance,
  cartCount,
  unreadInbound,
}: {
  user: NavUser | null;
  balance: number;
  cartCount: number;
  unreadInbound: number;
}) {
  const isCustomer = user?.role === "customer";
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
        <Link to={href("/")} className="shrink-0" aria-label="SMS Gateway home">
          <img src="/logo.svg" alt="SMS Gateway" className="h-[60px] w-auto" />
        </Link>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {isCustomer ? (
            <>
              <Menu label="Control Panel" links={controlPanelLinks} />
              <NavLink
                to={href("/sms/inbox")}
                className={navLinkClass}
                aria-label={unreadInbound > 0 ? `Inbox, ${unreadInbound} unread` : "Inbox"}
              >
                Inbox
                {unreadInbound > 0 ? (
                  <span
                    data-testid="inbox-unread"
                    className="ml-1 rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
                  >
                    {formatNumber(unreadInbound)}
                  </span>
                ) : null}
              </NavLink>
              <NavLink to={href("/sms/support")} className={navLinkClass}>
                Support
              </NavLink>
            </>
          ) : (
            <>
              <Link
                to={user?.role === "admin" ? href("/order/allOrders") : href("/order/myOrders")}
                aria-label="Orders"
                title="Orders"
                className="rounded px-2 py-1 text-slate-700 hover:text-slate-900"
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="h-5 w-5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                >
                  <path d="M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01" strokeLinecap="round" />
                </svg>
              </Link>
              <NavLink to={href("/blog/:slug", { slug: "sms-api-services-how-they-work" })} className={navLinkClass}>
                Blog
              </NavLink>
              <NavLink to={href("/sms/contact")} className={navLinkClass}>
                Contact
              </NavLink>
              {user?.role === "admin" ? <Menu label="Admin" links={adminLinks} /> : null}
            </>
          )}
        </div>
        <div className="ml-auto flex flex-wrap items-center gap-x-3 gap-y-2">
          {user ? (
            <>
              <CartLink count={cartCount} />
              <span className="text-sm text-slate-700" data-testid="balance">
                Account balance: {formatNumber(balance)} credits
              </span>
              <span className="text-sm font-medium text-slate-900">Welcome, {user.fullName}</span>
              <NavLink to={href("/account/settings")} className={navLinkClass}>
                Settings
              </NavLink>
              <Form method="post" action={href("/logout")}>
                <button type="submit" className={buttonClass({ variant: "secondary", size: "sm" })}>
                  Logout
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link to={href("/register")} className={buttonClass({ variant: "success", size: "sm" }, "w-[120px]")}>
                Try for free
              </Link>
              <Link to={href("/register")} className={buttonClass({ variant: "secondary", size: "sm" }, "w-[100px]")}>
                Register
              </Link>
              <Link to={href("/login")} className={buttonClass({ variant: "primary", size: "sm" }, "w-[100px]")}>
                Login
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
