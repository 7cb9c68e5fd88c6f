import { href, redirect } from "react-router";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { isPaid } from "#app/modules/shop/orders.ts";
import { getOrderForUser } from "#app/modules/shop/orders.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/order-confirmed";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = () => [{ title: "Order Confirmed | SMS Gateway" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const order = await getOrderForUser(user.id, idOf(params.id));
  if (!order) throw notFound();
  // A refunded or disputed order was paid: its details say what happened since.
  if (order.status === "Refunded" || order.status === "Disputed")
    throw redirect(href("/order/orderDetails/:id", { id: String(order.id) }));
  if (!isPaid(order.status)) throw redirect(`${href("/failed")}?orderId=${order.id}`);
  return { order: { id: order.id, totalCredits: order.totalCredits } };
}

export default function OrderConfirmed({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <Card className="mx-auto max-w-xl text-center">
      <div
        aria-hidden="true"
        className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-3xl text-emerald-700"
      >
        ✓
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Order has been Confirmed!</h1>
      <p className="mt-3 text-lg text-slate-700">
        Order ID: <strong data-testid="order-id">{order.id}</strong>
      </p>
      <p className="mt-3 text-slate-600">
        Thank you for your purchase! Your account has been credited with {formatNumber(order.totalCredits)} SMS credits.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <ButtonLink to={href("/sms/sendSms")}>Send SMS</ButtonLink>
        <ButtonLink to={href("/order/orderDetails/:id", { id: String(order.id) })} variant="secondary">
          View Order
        </ButtonLink>
      </div>
    </Card>
  );
}
