import { Form, href, Link, useSubmit } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Field, SelectField } from "#app/components/ui/field.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import {
  CATEGORY_LABELS,
  PACKAGE_CATEGORIES,
  packageTitle,
  parseHomeFilters,
  SORT_OPTIONS,
} from "#app/modules/shop/packages.ts";
import { listPackages } from "#app/modules/shop/packages.server.ts";
import { cardPaymentAvailable } from "#app/modules/payments/provider.server.ts";
import { CardPaymentUnavailable } from "#app/components/shop/card-payment-unavailable.tsx";
import { formatDollars, formatNumber } from "#app/utils/misc.ts";
import { type PageHandle, useRootData } from "#app/root.tsx";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [{ title: "SMS Pricing Plans | SMS Gateway" }];

// The landing page is sent without React's 110 kB (docs/decisions/016); its filters work as plain HTML.
export const handle: PageHandle = { hydrate: false };

export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseHomeFilters(new URL(request.url).searchParams);
  const packages = (await listPackages(filters)).map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    category: p.category,
    specialTag: p.specialTag,
    priceCents: p.priceCents,
    credits: p.credits,
    image: p.image,
  }));
  return { filters, packages, cardPaymentAvailable: cardPaymentAvailable() };
}

function SignUpBanner() {
  return (
    <section className="mb-8 flex flex-wrap items-center justify-between gap-4 rounded-lg bg-brand-600 px-6 py-5 text-white shadow-sm">
      <div>
        <p className="text-lg font-semibold">Sign up for free and send your first SMS in minutes.</p>
        <p className="text-sm text-brand-100">No contract, no monthly fee: buy credits only when you need them.</p>
      </div>
      <ButtonLink to={href("/register")} variant="secondary">
        Sign up for free
      </ButtonLink>
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { filters, packages, cardPaymentAvailable } = loaderData;
  const root = useRootData();
  const submit = useSubmit();
  return (
    <div>
      {root?.user ? null : <SignUpBanner />}
      <PageHeader title="Choose Your SMS Pricing Plan" />
      <p className="-mt-4 mb-6 text-sm text-slate-700">
        One credit sends one SMS segment to most destinations; some cost more: see the{" "}
        <Link to={href("/pricing/destinations")}>prices by destination</Link>.
      </p>
      {cardPaymentAvailable ? null : <CardPaymentUnavailable className="mb-6" />}
      <Form
        method="get"
        role="search"
        data-auto-submit
        className="mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[1fr_12rem_12rem_auto] sm:items-end"
        onChange={(event) => {
          // With JavaScript the selects apply at once; typing waits for Search (or Enter).
          if ((event.target as HTMLElement).tagName === "SELECT") void submit(event.currentTarget);
        }}
      >
        <Field
          label="Search"
          inputProps={{ name: "q", type: "search", defaultValue: filters.q, placeholder: "Package name" }}
        />
        <SelectField label="Category" selectProps={{ name: "category", defaultValue: filters.category }}>
          <option value="">All categories</option>
          {PACKAGE_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {CATEGORY_LABELS[c]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Sort by" selectProps={{ name: "sort", defaultValue: filters.sort }}>
          {SORT_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
        <Button type="submit">Search</Button>
      </Form>

      {packages.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No packages match your search.
        </p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {packages.map((p) => (
            <li
              key={p.id}
              className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
            >
              <Link
                to={href("/menuItemDetails/:menuItemId", { menuItemId: String(p.id) })}
                className="block aspect-[3/2] bg-slate-100"
                tabIndex={-1}
                aria-hidden="true"
              >
                {p.image ? <img src={p.image} alt="" className="h-full w-full object-cover" loading="lazy" /> : null}
              </Link>
              <div className="flex flex-1 flex-col gap-3 p-5">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone="neutral">{CATEGORY_LABELS[p.category]}</Badge>
                  {p.specialTag ? <Badge tone="warning">{p.specialTag}</Badge> : null}
                </div>
                <h2 className="text-lg font-semibold text-slate-900">
                  <Link
                    to={href("/menuItemDetails/:menuItemId", { menuItemId: String(p.id) })}
                    className="text-slate-900 no-underline hover:text-brand-700"
                  >
                    {packageTitle(p.name)}
                  </Link>
                </h2>
                <p className="flex-1 text-sm text-slate-600">{p.description}</p>
                <div className="flex items-end justify-between gap-2">
                  <div>
                    <p className="text-2xl font-bold text-slate-900">{formatDollars(p.priceCents)}</p>
                    <p className="text-xs text-slate-500">
                      {formatNumber(p.credits)} credits · ${(p.priceCents / 100 / p.credits).toFixed(3)} per SMS
                    </p>
                  </div>
                  <ButtonLink
                    to={href("/menuItemDetails/:menuItemId", { menuItemId: String(p.id) })}
                    size="sm"
                    aria-label={`View details of ${packageTitle(p.name)}`}
                  >
                    View Details
                  </ButtonLink>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
