import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { offlineCharges } from "#app/db/schema/shop.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { CARD_PAYMENT_UNAVAILABLE } from "#app/modules/payments/card-payment-unavailable.ts";
import type { PaymentProvider } from "#app/modules/payments/provider.ts";

// Stripe's test cards and messages; any other valid number is refused as a real card.
const DECLINES: Record<string, { code: string; message: string }> = {
  "4000000000000002": { code: "card_declined", message: "Your card was declined." },
  "4000000000009995": { code: "insufficient_funds", message: "Your card has insufficient funds." },
};
const SUCCEEDS = new Set(["4242424242424242"]);
const NOT_A_TEST_CARD = {
  code: "live_card_in_test_mode",
  message: "Your card was declined. This demo accepts only test cards, such as 4242 4242 4242 4242.",
};

/**
 * Test cards buy credits only where those credits cannot become real SMS (the simulator), unless
 * the operator says otherwise with ALLOW_TEST_PAYMENTS=1.
 */
export const testCardsAccepted = (): boolean => getEnv().cardPayments === "test-cards";

export class TestCardsRefusedError extends Error {
  constructor() {
    super(CARD_PAYMENT_UNAVAILABLE);
    this.name = "TestCardsRefusedError";
  }
}

const CANCELLED_MESSAGE = "This order was cancelled, so it can no longer be paid.";
const cancellationId = (orderId: number) => `offcancel_${orderId}`;

/** The order's successful charge, if it has one: an order is never charged twice nor cancelled once paid. */
const succeededCharge = (tx: Tx, orderId: number) =>
  tx
    .select({ id: offlineCharges.id })
    .from(offlineCharges)
    .where(and(eq(offlineCharges.orderId, orderId), eq(offlineCharges.status, "succeeded")))
    .get();

export type TestCardResult = { status: "succeeded"; id: string } | { status: "declined"; id: string; message: string };

/**
 * Charges a validated test card for the order's own amount. Only the outcome is kept, never the
 * card number. An order already paid is not charged twice (a double submit gets the first charge).
 * Outside test mode (and without ALLOW_TEST_PAYMENTS): TestCardsRefusedError, nothing charged or recorded.
 */
export async function chargeTestCard(
  order: { id: number; totalCents: number; currency: string },
  cardNumber: string,
): Promise<TestCardResult> {
  if (!testCardsAccepted()) throw new TestCardsRefusedError();
  return await withTx(async (tx) => {
    const paid = await succeededCharge(tx, order.id);
    if (paid) return { status: "succeeded" as const, id: paid.id };
    const cancelled = await tx
      .select({ id: offlineCharges.id })
      .from(offlineCharges)
      .where(eq(offlineCharges.id, cancellationId(order.id)))
      .get();
    if (cancelled) return { status: "declined" as const, id: cancelled.id, message: CANCELLED_MESSAGE };
    const decline = SUCCEEDS.has(cardNumber) ? null : (DECLINES[cardNumber] ?? NOT_A_TEST_CARD);
    const id = `offch_${randomBytes(12).toString("base64url")}`;
    await tx
      .insert(offlineCharges)
      .values({
        id,
        orderId: order.id,
        amountCents: order.totalCents,
        currency: order.currency,
        status: decline ? "declined" : "succeeded",
        declineCode: decline?.code ?? null,
        createdAt: clock.date(),
      })
      .run();
    return decline
      ? { status: "declined" as const, id, message: decline.message }
      : { status: "succeeded" as const, id };
  });
}

export const offlineProvider: PaymentProvider = {
  name: "offline",
  async retrievePayment(paymentId) {
    const charge = await getDb().select().from(offlineCharges).where(eq(offlineCharges.id, paymentId)).get();
    if (!charge) return null;
    return {
      id: charge.id,
      status: charge.status === "succeeded" ? "succeeded" : "failed",
      amountCents: charge.amountCents,
      currency: charge.currency,
      orderId: charge.orderId,
      failureMessage: charge.declineCode,
    };
  },
  /** Like cancelling a PaymentIntent: recorded on the processor's side, so a later charge is refused (both in immediate transactions). */
  async cancelPayment(order) {
    return await withTx(async (tx) => {
      const paid = await succeededCharge(tx, order.id);
      if (paid) return { status: "paid" as const, paymentId: paid.id };
      await tx
        .insert(offlineCharges)
        .values({
          id: cancellationId(order.id),
          orderId: order.id,
          amountCents: 0,
          currency: "usd",
          status: "cancelled",
          createdAt: clock.date(),
        })
        .onConflictDoNothing()
        .run();
      return { status: "cancelled" as const };
    });
  },
};
