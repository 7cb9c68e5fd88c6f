// Money the payment provider took back (a refund, a dispute) takes the order's credits back through
// the ledger, once per event however often it is delivered, and never below a zero balance: what
// the customer had already spent is recorded as the order's shortfall (decision record 004).
import { eq } from "drizzle-orm";
import { type Executor, withTx } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema/shop.ts";
import { takeBack } from "#app/modules/credits/ledger.server.ts";
import type { Order } from "#app/modules/shop/orders.server.ts";

export type ReversalResult =
  | { status: "reversed"; orderId: number; taken: number; shortfall: number }
  /** Delivered before, or nothing new to take back. */
  | { status: "unchanged"; orderId: number }
  /** No order was paid with this payment (not ours, or never confirmed). */
  | { status: "unknown-payment" };

/** The credits a share of the order's price stands for, rounded down (in the customer's favour). */
function creditsForCents(order: Pick<Order, "totalCents" | "totalCredits">, cents: number): number {
  if (order.totalCents <= 0) return order.totalCredits;
  return Math.floor((order.totalCredits * Math.min(cents, order.totalCents)) / order.totalCents);
}

/**
 * Brings what was claimed back from the order (taken plus shortfall) up to `claim` credits.
 * Claims only grow, so a replayed or out-of-order event takes nothing twice.
 */
async function claimCredits(tx: Executor, order: Order, claim: number, key: string, note: string) {
  const due = claim - (order.creditsReversed + order.creditsShortfall);
  if (due <= 0) return { taken: 0, shortfall: 0 };
  return await takeBack(tx, { userId: order.userId, kind: "reversal", wanted: due, key, note });
}

async function paidOrder(tx: Executor, paymentId: string): Promise<Order | undefined> {
  return await tx.select().from(orders).where(eq(orders.paymentId, paymentId)).get();
}

/**
 * A refund of the payment: `refundedCents` is the provider's running total for the charge (Stripe's
 * `amount_refunded`), so a partial refund takes back its share of the credits and a later one the
 * rest. Fully refunded, the order becomes Refunded.
 */
export async function recordRefund(refund: {
  paymentId: string;
  chargeId: string;
  refundedCents: number;
}): Promise<ReversalResult> {
  return await withTx(async (tx) => {
    const order = await paidOrder(tx, refund.paymentId);
    if (!order) return { status: "unknown-payment" as const };
    if (refund.refundedCents <= order.refundedCents) return { status: "unchanged" as const, orderId: order.id };
    const { taken, shortfall } = await claimCredits(
      tx,
      order,
      creditsForCents(order, refund.refundedCents),
      `refund:${refund.chargeId}:${refund.refundedCents}`,
      `Order ${order.id} refunded`,
    );
    const fully = refund.refundedCents >= order.totalCents;
    await tx
      .update(orders)
      .set({
        refundedCents: refund.refundedCents,
        creditsReversed: order.creditsReversed + taken,
        creditsShortfall: order.creditsShortfall + shortfall,
        ...(fully && order.status !== "Disputed" ? { status: "Refunded" as const } : {}),
      })
      .where(eq(orders.id, order.id))
      .run();
    return { status: "reversed" as const, orderId: order.id, taken, shortfall };
  });
}

/** A dispute (chargeback) opened on the payment: the disputed share of the credits comes back and the order is Disputed. */
export async function recordDispute(dispute: {
  paymentId: string;
  disputeId: string;
  amountCents: number;
}): Promise<ReversalResult> {
  return await withTx(async (tx) => {
    const order = await paidOrder(tx, dispute.paymentId);
    if (!order) return { status: "unknown-payment" as const };
    if (order.status === "Disputed") return { status: "unchanged" as const, orderId: order.id };
    const { taken, shortfall } = await claimCredits(
      tx,
      order,
      creditsForCents(order, dispute.amountCents),
      `dispute:${dispute.disputeId}`,
      `Order ${order.id} disputed`,
    );
    await tx
      .update(orders)
      .set({
        status: "Disputed",
        creditsReversed: order.creditsReversed + taken,
        creditsShortfall: order.creditsShortfall + shortfall,
      })
      .where(eq(orders.id, order.id))
      .run();
    return { status: "reversed" as const, orderId: order.id, taken, shortfall };
  });
}
