import { data, href, redirect } from "react-router";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { fulfil } from "#app/modules/payments/fulfil.server.ts";
import { stripeConfigured } from "#app/modules/payments/provider.server.ts";
import { paymentIdFromCheckoutSession } from "#app/modules/payments/stripe.server.ts";
import { getOrderForUser } from "#app/modules/shop/orders.server.ts";
import { type Limit, hit } from "#app/utils/rate-limit.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/payment-return";
import { log } from "#app/utils/log.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Payment | SMS Gateway" }];

// Stripe's ids: a prefix and letters and digits (Checkout sessions carry `test_`/`live_` after theirs).
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9]{1,255}$/;
const CHECKOUT_SESSION_ID = /^cs_(?:test_|live_)?[A-Za-z0-9]{1,255}$/;

// A buyer comes back once or twice per payment; each visit may cost a call to Stripe.
const visits: Limit = { name: "payment-return", limit: 20, windowMs: 10 * 60 * 1000 };

const BAD_LINK =
  "This payment link is not valid. Nothing was charged or changed by opening it: see My Orders for your order's status.";

/**
 * Where Stripe sends the browser back (Payment Element redirects, Checkout's success URL). A GET
 * that records a payment is safe here: fulfil() believes only what Stripe's API says, and does
 * nothing the second time. An order already settled answers from the database, without Stripe.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const limit = await hit(visits, String(user.id));
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    const message = `Too many visits to this page. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or see My Orders.`;
    return data({ message }, { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } });
  }
  const url = new URL(request.url);
  const order = await getOrderForUser(user.id, Number(url.searchParams.get("orderId")));
  if (!order || !stripeConfigured()) throw notFound();
  // Settled already (paid, then perhaps moved on; or cancelled): the database knows, Stripe is not asked.
  if (order.status !== "Pending") {
    return redirect(
      order.status === "Cancelled"
        ? `${href("/failed")}?orderId=${order.id}`
        : href("/order/orderconfirmed/:id", { id: String(order.id) }),
    );
  }

  const sessionId = url.searchParams.get("session_id");
  const intentId = url.searchParams.get("payment_intent");
  if (
    (sessionId !== null && !CHECKOUT_SESSION_ID.test(sessionId)) ||
    (intentId !== null && !PAYMENT_INTENT_ID.test(intentId))
  ) {
    return data({ message: BAD_LINK }, { status: 400 });
  }
  const paymentId = sessionId ? await paymentIdFromCheckoutSession(sessionId, order.id) : intentId;
  const result = paymentId ? await fulfil(order.id, paymentId) : null;
  if (result?.status === "confirmed") return redirect(href("/order/orderconfirmed/:id", { id: String(order.id) }));
  // paymentId is one of Stripe's ids here (checked above, or Stripe's own answer): safe to log.
  if (result && result.status !== "not-paid")
    log("warn", "payment", `order ${order.id}, payment ${paymentId}: ${result.status}`);
  return redirect(`${href("/failed")}?orderId=${order.id}`);
}

export default function PaymentReturn({ loaderData }: Route.ComponentProps) {
  return (
    <Card className="mx-auto max-w-xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Payment</h1>
      <p role="alert" className="mt-3 text-slate-600">
        {loaderData.message}
      </p>
      <div className="mt-6">
        <ButtonLink to={href("/order/myOrders")}>My Orders</ButtonLink>
      </div>
    </Card>
  );
}
