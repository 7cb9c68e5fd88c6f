import { data, redirect } from "react-router";
import { requireUser } from "../../modules/auth/guards.server.ts";
import { fulfil } from "../../modules/payments/fulfil.server.ts";
import { stripeConfigured } from "../../modules/payments/provider.server.ts";
import { paymentIdFromCheckoutSession } from "../../modules/payments/stripe.server.ts";
import { getOrderForUser } from "../../modules/shop/orders.server.ts";
import type { Route } from "./+types/payment-return";

/**
 * Where Stripe sends the browser back (Payment Element redirects, Checkout's success URL). A GET
 * that records a payment is safe here: fulfil() believes only what Stripe's API says, and does
 * nothing the second time.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const order = getOrderForUser(user.id, Number(url.searchParams.get("orderId")));
  if (!order || !stripeConfigured()) throw data(null, { status: 404 });
  const sessionId = url.searchParams.get("session_id");
  const paymentId = sessionId ? await paymentIdFromCheckoutSession(sessionId, order.id) : url.searchParams.get("payment_intent");
  const result = paymentId ? await fulfil(order.id, paymentId) : null;
  if (result?.status === "confirmed") return redirect(`/order/orderconfirmed/${order.id}`);
  if (result && result.status !== "not-paid") console.warn(`[payment] order ${order.id}, payment ${paymentId}: ${result.status}`);
  return redirect(`/failed?orderId=${order.id}`);
}
