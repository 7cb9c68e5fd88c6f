import { href } from "react-router";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card, Notice } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { isPayable } from "#app/modules/shop/orders.ts";
import { getOrderForUser } from "#app/modules/shop/orders.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/failed";

export const meta: Route.MetaFunction = () => [{ title: "Order Not Confirmed | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const orderId = new URL(request.url).searchParams.get("orderId");
  if (!orderId) return { order: null };
  const order = await getOrderForUser(user.id, Number(orderId));
  if (!order) throw notFound();
  return { order: { id: order.id, status: order.status, paymentError: order.paymentError } };
}

export default function Failed({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  const payable = order !== null && isPayable(order.status);
  return (
    <Card className="mx-auto max-w-xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Order Not Confirmed</h1>
      <p className="mt-3 text-slate-600">
        {order ? `Order ${order.id} was not confirmed` : "Your order was not confirmed"}, so no credits were added to
        your account. Your cart has been kept.
      </p>
      {order?.paymentError ? (
        <Notice tone="danger" className="mt-4">
          {order.paymentError}
        </Notice>
      ) : null}
      {order?.status === "Cancelled" ? (
        <Notice tone="danger" className="mt-4">
          This order was cancelled.
        </Notice>
      ) : null}
      <div className="mt-6 flex flex-wrap gap-3">
        {payable ? <ButtonLink to={`${href("/payment")}?orderId=${order.id}`}>Try Again</ButtonLink> : null}
        <ButtonLink to={href("/shoppingCart")} variant={payable ? "secondary" : "primary"}>
          Back to Cart
        </ButtonLink>
      </div>
    </Card>
  );
}
