import type Stripe from "stripe";
import { recordPaymentFailure } from "#app/modules/shop/orders.server.ts";
import { fulfil, type FulfilResult } from "#app/modules/payments/fulfil.server.ts";
import { recordDispute, recordRefund, type ReversalResult } from "#app/modules/payments/reversals.server.ts";
import { stripeOrderId } from "#app/modules/payments/stripe.server.ts";

export type WebhookOutcome =
  { handled: false } | { handled: true; result: FulfilResult | ReversalResult | { status: "recorded-failure" } };

const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === "string" ? ref : (ref?.id ?? null));

/** Acts on the events we subscribe to; anything else is acknowledged and ignored. */
export async function handleStripeEvent(event: Stripe.Event): Promise<WebhookOutcome> {
  switch (event.type) {
    case "payment_intent.succeeded": {
      const orderId = stripeOrderId(event.data.object.metadata);
      if (!orderId) return { handled: false };
      return { handled: true, result: await fulfil(orderId, event.data.object.id) };
    }
    case "payment_intent.payment_failed": {
      const orderId = stripeOrderId(event.data.object.metadata);
      if (!orderId) return { handled: false };
      await recordPaymentFailure(
        orderId,
        event.data.object.last_payment_error?.message ?? "Your payment was not successful.",
      );
      return { handled: true, result: { status: "recorded-failure" } };
    }
    case "checkout.session.completed": {
      const session = event.data.object;
      const orderId = stripeOrderId(session.metadata);
      const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
      // Delayed methods (bank debits) complete unpaid; payment_intent.succeeded follows when they settle.
      if (!orderId || !intent || session.payment_status !== "paid") return { handled: false };
      return { handled: true, result: await fulfil(orderId, intent) };
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const paymentId = idOf(charge.payment_intent);
      if (!paymentId) return { handled: false };
      return {
        handled: true,
        result: await recordRefund({ paymentId, chargeId: charge.id, refundedCents: charge.amount_refunded }),
      };
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      const paymentId = idOf(dispute.payment_intent);
      if (!paymentId) return { handled: false };
      return {
        handled: true,
        result: await recordDispute({ paymentId, disputeId: dispute.id, amountCents: dispute.amount }),
      };
    }
    default:
      return { handled: false };
  }
}
