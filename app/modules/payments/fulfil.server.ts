import { and, eq } from "drizzle-orm";
import { withTx } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema/shop.ts";
import { clock } from "#app/utils/clock.server.ts";
import { bookEntry } from "#app/modules/credits/ledger.server.ts";
import { takeOrderedFromCart } from "#app/modules/shop/cart.server.ts";
import { getOrder, recordPaymentFailure } from "#app/modules/shop/orders.server.ts";
import { getPaymentProvider } from "#app/modules/payments/provider.server.ts";

export type FulfilResult =
  /** `granted` is true for the one call that confirmed the order and booked the credits. */
  | { status: "confirmed"; orderId: number; credits: number; granted: boolean }
  /** The provider does not (yet) report this payment as succeeded. */
  | { status: "not-paid"; reason: string }
  /** The payment exists but is not this order's: another order, amount or currency. */
  | { status: "mismatch"; reason: string }
  /** The order was confirmed by another payment, or cancelled, before this one arrived. */
  | { status: "conflict"; reason: string }
  | { status: "not-found" };

/**
 * Confirms an order and grants its credits, exactly once, after asking the payment provider
 * itself about the payment. Called by the webhook, the return page and the offline processor;
 * any number of calls, in any order and at the same time, confirm once and grant once: the
 * conditional UPDATE (only a Pending order), the ledger key `payment:<id>` and the unique
 * order payment id all stand in the way of a second grant.
 */
export async function fulfil(orderId: number, paymentId: string): Promise<FulfilResult> {
  const order = await getOrder(orderId);
  if (!order) return { status: "not-found" };
  if (order.status !== "Pending") return await settled(order.id, paymentId);

  const provider = getPaymentProvider();
  const payment = await provider.retrievePayment(paymentId);
  if (!payment) return { status: "not-paid", reason: "The payment provider does not know this payment." };
  if (payment.orderId !== order.id) return { status: "mismatch", reason: "The payment was made for another order." };
  if (payment.amountCents !== order.totalCents || payment.currency.toLowerCase() !== order.currency.toLowerCase()) {
    return { status: "mismatch", reason: "The amount paid does not match the order." };
  }
  if (payment.status !== "succeeded") {
    if (payment.status === "failed" && payment.failureMessage)
      await recordPaymentFailure(order.id, payment.failureMessage);
    return {
      status: "not-paid",
      reason: payment.status === "processing" ? "The payment is still processing." : "The payment has not succeeded.",
    };
  }

  const granted = await withTx(async (tx) => {
    const confirmed = (
      await tx
        .update(orders)
        .set({
          status: "Confirmed",
          paymentId,
          paymentProvider: provider.name,
          paymentError: null,
          confirmedAt: clock.date(),
        })
        .where(and(eq(orders.id, order.id), eq(orders.status, "Pending")))
        .run()
    ).changes;
    if (confirmed === 0) return false;
    await bookEntry(tx, {
      userId: order.userId,
      kind: "grant",
      amount: order.totalCredits,
      key: `payment:${paymentId}`,
      note: `Order ${order.id}`,
    });
    await takeOrderedFromCart(tx, order.userId, order.lines);
    return true;
  });
  return granted
    ? { status: "confirmed", orderId: order.id, credits: order.totalCredits, granted: true }
    : await settled(order.id, paymentId);
}

/** The answer for an order that is no longer Pending. */
async function settled(orderId: number, paymentId: string): Promise<FulfilResult> {
  const order = await getOrder(orderId);
  if (!order) return { status: "not-found" };
  if (order.status === "Cancelled") return { status: "conflict", reason: "The order was cancelled." };
  if (order.paymentId !== paymentId) {
    return { status: "conflict", reason: "The order was already paid by another payment." };
  }
  return { status: "confirmed", orderId: order.id, credits: order.totalCredits, granted: false };
}
