// The payment provider interface; stripe.server.ts and offline.server.ts implement it, provider.server.ts picks one.

/** What the payment provider itself says about a payment: the only thing fulfil() trusts. */
export type ProviderPayment = {
  id: string;
  status: "succeeded" | "processing" | "failed" | "incomplete";
  amountCents: number;
  currency: string;
  /** The order the payment was made for, as recorded with the provider. */
  orderId: number | null;
  failureMessage: string | null;
};

/** What cancelling an order's payment came to: cancelled (nothing can pay it any more), or already paid / still processing. */
export type PaymentCancellation =
  { status: "cancelled" } | { status: "paid"; paymentId: string } | { status: "processing" };

/** The order as the providers know it: its id and the provider objects made for it. */
export type CancellableOrder = { id: number; providerRef: string | null; checkoutSessionRef: string | null };

export type PaymentProvider = {
  name: "offline" | "stripe";
  retrievePayment(paymentId: string): Promise<ProviderPayment | null>;
  /** Makes sure the order can no longer be paid, unless it already was (or is being): the provider has the last word. */
  cancelPayment(order: CancellableOrder): Promise<PaymentCancellation>;
};
