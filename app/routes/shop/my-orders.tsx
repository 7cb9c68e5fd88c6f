import { OrdersTable } from "#app/components/shop/orders-table.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { listUserOrders } from "#app/modules/shop/orders.server.ts";
import { positiveIntParam } from "#app/web/params.ts";
import type { Route } from "./+types/my-orders";

export const meta: Route.MetaFunction = () => [{ title: "Orders | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { rows, page, totalPages } = await listUserOrders(
    user.id,
    positiveIntParam(new URL(request.url).searchParams, "page") ?? 1,
  );
  return {
    page,
    totalPages,
    timeZone: user.timeZone,
    orders: rows.map((o) => ({
      id: o.id,
      createdAt: o.createdAt.getTime(),
      totalItems: o.totalItems,
      totalCents: o.totalCents,
      status: o.status,
    })),
  };
}

export default function MyOrders({ loaderData }: Route.ComponentProps) {
  const { orders, page, totalPages, timeZone } = loaderData;
  return (
    <div>
      <PageHeader title="Orders" />
      <div className="mb-4 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white">Your Recent Orders</div>
      {orders.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          You do not have any previous orders.
        </p>
      ) : (
        <>
          <OrdersTable orders={orders} timeZone={timeZone} />
          {totalPages > 1 ? <NumberedPager page={page} totalPages={totalPages} /> : null}
        </>
      )}
    </div>
  );
}
