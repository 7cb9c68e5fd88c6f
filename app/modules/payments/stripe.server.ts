import { and, eq, isNull } from "drizzle-orm";
import Stripe from "stripe";
import { withTx } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema/shop.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { packageTitle } from "#app/modules/shop/packages.ts";
import type { OrderWithLines } from "#app/modules/shop/orders.server.ts";
import type { PaymentCancellation, PaymentProvider, ProviderPayment } from "#app/modules/payments/provider.ts";

let client: Stripe | undefined;

/** The SDK client; STRIPE_API_BASE (tests only) points it at a local stand-in for api.stripe.com. */
function stripe(): Stripe {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) throw new Error("Stripe is not configured (STRIPE_SECRET_KEY)");
  if (!client) {
    const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
    client = new Stripe(env.STRIPE_SECRET_KEY, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(base && {
        host: base.hostname,
        port: base.port || (base.protocol === "http:" ? 80 : 443),
        protocol: base.protocol === "http:" ? ("http" as const) : ("https" as const),
      }),
    });
  }
  return client;
}

/** The order id we put in a Stripe object's metadata. */
export function stripeOrderId(metadata: Stripe.Metadata | null | undefined): number | null {
  const id = Number(metadata?.orderId);
  return Number.isInteger(id) && id > 0 ? id : null;
}

function toPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  const status: ProviderPayment["status"] =
    intent.status === "succeeded"
      ? "succeeded"
      : intent.status === "processing"
        ? "processing"
        : intent.status === "canceled"
          ? "failed"
          : "incomplete";
  return {
    id: intent.id,
    status,
    amountCents: intent.amount,
    currency: intent.currency,
    orderId: stripeOrderId(intent.metadata),
    failureMessage: intent.last_payment_error?.message ?? null,
  };
}

/** What a PaymentIntent's state means for cancelling its order, or null when it can still be cancelled. */
function settledIntent(intent: Stripe.PaymentIntent): PaymentCancellation | null {
  if (intent.status === "succeeded") return { status: "paid", paymentId: intent.id };
  if (intent.status === "processing") return { status: "processing" };
  if (intent.status === "canceled") return { status: "cancelled" };
  return null;
}

/** Cancels the intent unless it settled; a cancel that loses the race to a payment reads the intent again. */
async function cancelIntent(intentId: string): Promise<PaymentCancellation> {
  const settled = settledIntent(await stripe().paymentIntents.retrieve(intentId));
  if (settled) return settled;
  try {
    await stripe().paymentIntents.cancel(intentId, { cancellation_reason: "abandoned" });
    return { status: "cancelled" };
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    const now = settledIntent(await stripe().paymentIntents.retrieve(intentId));
    if (now) return now;
    throw error;
  }
}

/** Expires an open Checkout Session; a completed one answers with its PaymentIntent's state. */
async function cancelCheckout(sessionId: string): Promise<PaymentCancellation> {
  let session = await stripe().checkout.sessions.retrieve(sessionId);
  if (session.status === "open") {
    try {
      await stripe().checkout.sessions.expire(sessionId);
      return { status: "cancelled" };
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      session = await stripe().checkout.sessions.retrieve(sessionId);
    }
  }
  const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  if (session.status === "complete" && intent) return cancelIntent(intent);
  return { status: "cancelled" };
}

export const stripeProvider: PaymentProvider = {
  name: "stripe",
  async retrievePayment(paymentId) {
    if (!paymentId.startsWith("pi_")) return null;
    try {
      return toPayment(await stripe().paymentIntents.retrieve(paymentId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  },
  async cancelPayment(order) {
    // Both ways of paying may have been started (Payment Element and, without JavaScript, Checkout).
    if (order.checkoutSessionRef) {
      const outcome = await cancelCheckout(order.checkoutSessionRef);
      if (outcome.status !== "cancelled") return outcome;
    }
    return order.providerRef ? cancelIntent(order.providerRef) : { status: "cancelled" };
  },
};

type PayableOrder = Pick<OrderWithLines, "id" | "userId" | "totalCents" | "currency" | "providerRef" | "pickupEmail">;

/**
 * The order's PaymentIntent for the Payment Element, made once per order: the idempotency key is
 * derived from the order, and the id is kept on the order for visits after Stripe forgets the key.
 */
export async function ensurePaymentIntent(order: PayableOrder): Promise<{ clientSecret: string }> {
  if (order.providerRef) {
    const existing = await stripe().paymentIntents.retrieve(order.providerRef);
    if (existing.status !== "canceled" && existing.client_secret) return { clientSecret: existing.client_secret };
  }
  const intent = await stripe().paymentIntents.create(
    {
      amount: order.totalCents,
      currency: order.currency,
      automatic_payment_methods: { enabled: true },
      description: `SMS Gateway order ${order.id}`,
      receipt_email: order.pickupEmail,
      metadata: { orderId: String(order.id), userId: String(order.userId) },
    },
    { idempotencyKey: `order-${order.id}-payment-intent${order.providerRef ? `-after-${order.providerRef}` : ""}` },
  );
  await withTx((tx) =>
    tx
      .update(orders)
      .set({ providerRef: intent.id })
      .where(
        and(
          eq(orders.id, order.id),
          order.providerRef ? eq(orders.providerRef, order.providerRef) : isNull(orders.providerRef),
        ),
      )
      .run(),
  );
  if (!intent.client_secret) throw new Error(`PaymentIntent ${intent.id} came without a client secret`);
  return { clientSecret: intent.client_secret };
}

/** Stripe Checkout, for browsers without JavaScript: the hosted page takes the card. */
export async function createCheckoutSession(order: PayableOrder & Pick<OrderWithLines, "lines">): Promise<string> {
  const origin = getEnv().appUrl;
  const metadata = { orderId: String(order.id), userId: String(order.userId) };
  const session = await stripe().checkout.sessions.create(
    {
      mode: "payment",
      client_reference_id: String(order.id),
      customer_email: order.pickupEmail,
      metadata,
      payment_intent_data: { metadata },
      line_items: order.lines.map((line) => ({
        quantity: line.quantity,
        price_data: {
          currency: order.currency,
          unit_amount: line.priceCents,
          product_data: { name: packageTitle(line.itemName) },
        },
      })),
      success_url: `${origin}/payment/return?orderId=${order.id}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/payment?orderId=${order.id}`,
    },
    { idempotencyKey: `order-${order.id}-checkout` },
  );
  // Kept so that an admin cancelling the order can expire the session.
  await withTx((tx) => tx.update(orders).set({ checkoutSessionRef: session.id }).where(eq(orders.id, order.id)).run());
  if (!session.url) throw new Error(`Checkout Session ${session.id} came without a URL`);
  return session.url;
}

/** The PaymentIntent behind a completed Checkout Session of this order, or null. */
export async function paymentIdFromCheckoutSession(sessionId: string, orderId: number): Promise<string | null> {
  if (!sessionId.startsWith("cs_")) return null;
  const session = await stripe().checkout.sessions.retrieve(sessionId);
  if (stripeOrderId(session.metadata) !== orderId) return null;
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

/** Checks the signature over the raw body and its age (5 minutes, by our clock). Throws when either fails. */
export function verifyWebhook(rawBody: string, signature: string | null): Stripe.Event {
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new Error("Stripe is not configured (STRIPE_WEBHOOK_SECRET)");
  return Stripe.webhooks.constructEvent(
    rawBody,
    signature ?? "",
    secret,
    Stripe.webhooks.DEFAULT_TOLERANCE,
    undefined,
    clock.now(),
  );
}
