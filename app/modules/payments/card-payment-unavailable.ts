// Browser-safe and free of imports: the home page shows it, and its JavaScript budget has no room for zod.

/** Neither Stripe nor test cards here (credits are sold another way): the shop, cart and payment page say so. */
export const CARD_PAYMENT_UNAVAILABLE =
  "Card payment is not available on this gateway. To buy credits, please contact us.";
