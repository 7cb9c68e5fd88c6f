import { type ReactNode, useContext } from "react";
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  UNSAFE_FrameworkContext as FrameworkContext,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "#app/app.css";
import { Analytics } from "#app/components/analytics.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Footer } from "#app/components/footer.tsx";
import { Nav } from "#app/components/nav.tsx";
import { TestModeBanner } from "#app/components/test-mode-banner.tsx";
import { PendingOverlay } from "#app/components/pending-overlay.tsx";
import { Toaster } from "#app/components/toaster.tsx";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { getCartCount } from "#app/modules/shop/cart.server.ts";
import { unreadInboundCount } from "#app/modules/inbound/inbox.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { getToast } from "#app/web/toast.server.ts";

export const meta: Route.MetaFunction = () => [
  { title: "SMS Gateway: bulk SMS, scheduling and an SMS API" },
  {
    name: "description",
    content: "Send single, group and scheduled SMS, keep contacts and groups, and integrate with a REST API.",
  },
];

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.ico" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const { toast, headers } = await getToast(request);
  const { ANALYTICS_ID, DEMO_MODE, testMode } = getEnv();
  return data(
    {
      user: user ? { id: user.id, fullName: user.fullName, role: user.role, timeZone: user.timeZone } : null,
      balance: user ? await getBalance(user.id) : 0,
      cartCount: user ? await getCartCount(user.id) : 0,
      unreadInbound: user ? await unreadInboundCount(user.id) : 0,
      toast,
      analyticsId: ANALYTICS_ID ?? null,
      demoMode: DEMO_MODE,
      testMode: testMode.active ? { sms: testMode.sms, payments: testMode.payments, demo: testMode.demo } : null,
      year: clock.date().getUTCFullYear(),
    },
    { headers: headers ?? undefined },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

/** What a route's `handle` may say about the page around it. */
export type PageHandle = { bare?: boolean; hydrate?: boolean };

export function Layout({ children }: { children: ReactNode }) {
  const root = useRootData();
  const handles = useMatches().map((m) => (m.handle ?? {}) as PageHandle);
  // The not-found page is only the text NotFound, without the shell.
  const bare = handles.some((h) => h.bare);
  // A page marked hydrate: false goes out as plain HTML (docs/decisions/016) unless a toast or analytics
  // needs React; in the browser React is already running, so it keeps its scripts.
  const hydrate =
    typeof document !== "undefined" ||
    !handles.some((h) => h.hydrate === false) ||
    Boolean(root?.toast || root?.analyticsId);
  const nonce = useContext(FrameworkContext)?.nonce;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {bare ? (
          children
        ) : (
          <>
            <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50">
              Skip to content
            </a>
            {root?.testMode ? <TestModeBanner notice={root.testMode} /> : null}
            <Nav
              user={root?.user ?? null}
              balance={root?.balance ?? 0}
              cartCount={root?.cartCount ?? 0}
              unreadInbound={root?.unreadInbound ?? 0}
            />
            <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-8">
              {children}
            </main>
            <Footer year={root?.year ?? new Date().getUTCFullYear()} />
            <Toaster toast={root?.toast ?? null} />
            <PendingOverlay />
            <Analytics id={root?.analyticsId ?? null} />
          </>
        )}
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <script type="module" src="/enhance/auto-submit.js" nonce={nonce} />
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
