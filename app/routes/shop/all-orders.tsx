import { Form, useSubmit } from "react-router";
import { OrdersTable } from "#app/components/shop/orders-table.tsx";
import { Pager } from "#app/components/ui/pager.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field, SelectField } from "#app/components/ui/field.tsx";
import { Notice, PageHeader } from "#app/components/ui/page.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import {
  ADMIN_STATUS_FILTERS,
  type AdminOrderQuery,
  PAGE_SIZES,
  parseAdminOrderQuery,
} from "#app/modules/shop/orders.ts";
import { searchOrders } from "#app/modules/shop/orders.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import type { Route } from "./+types/all-orders";

export const meta: Route.MetaFunction = () => [{ title: "Orders List | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const asked = parseAdminOrderQuery(new URL(request.url).searchParams);
  const { rows, total, exact, page } = await searchOrders(asked);
  return {
    query: { ...asked, page },
    total,
    exact,
    demoMode: getEnv().DEMO_MODE,
    timeZone: user.timeZone,
    orders: rows.map((o) => ({
      id: o.id,
      contact: { name: o.pickupName, phone: o.pickupPhone, email: o.pickupEmail },
      totalCents: o.totalCents,
      totalItems: o.totalItems,
      createdAt: o.createdAt.getTime(),
      status: o.status,
    })),
  };
}

/** The same list on another page: search, status and size stay. */
function pageHref(query: AdminOrderQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  params.set("page", String(page));
  params.set("size", String(query.size));
  return `?${params}`;
}

export default function AllOrders({ loaderData }: Route.ComponentProps) {
  const { query, orders, total, exact, demoMode, timeZone } = loaderData;
  const submit = useSubmit();
  const first = (query.page - 1) * query.size + 1;
  const summary =
    orders.length === 0
      ? undefined
      : `Showing ${formatNumber(first)}–${formatNumber(first + orders.length - 1)} of ${exact ? formatNumber(total) : `more than ${formatNumber(total - 1)}`}`;
  return (
    <div>
      <PageHeader title="Orders List" />
      {demoMode ? (
        <Notice tone="danger" className="mb-4">
          In this demo, orders older than 3 days might be deleted!
        </Notice>
      ) : null}
      {/* A GET form: every filter lives in the URL. It has no page field, so filtering starts at page 1. */}
      <Form
        method="get"
        role="search"
        className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[1fr_12rem_9rem_auto] sm:items-end"
      >
        <Field
          label="Search"
          inputProps={{ name: "q", type: "search", defaultValue: query.q, placeholder: "Search Name, Email or Phone" }}
        />
        <SelectField label="Status" selectProps={{ name: "status", defaultValue: query.status }}>
          <option value="">All</option>
          {ADMIN_STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Rows per page"
          selectProps={{
            name: "size",
            defaultValue: String(query.size),
            onChange: (e) => void submit(e.currentTarget.form),
          }}
        >
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <Button type="submit">Filter</Button>
      </Form>
      {orders.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No orders found.
        </p>
      ) : (
        <OrdersTable orders={orders} timeZone={timeZone} withContact />
      )}
      <Pager
        previous={query.page > 1 ? pageHref(query, query.page - 1) : null}
        next={query.page * query.size < total ? pageHref(query, query.page + 1) : null}
        summary={summary}
      />
    </div>
  );
}
