import { getEnv } from "#app/utils/env.server.ts";
import { offlineProvider } from "#app/modules/payments/offline.server.ts";
import type { PaymentProvider } from "#app/modules/payments/provider.ts";
import { stripeProvider } from "#app/modules/payments/stripe.server.ts";

export const stripeConfigured = (): boolean => Boolean(getEnv().STRIPE_SECRET_KEY);

/** Customers can pay by card: Stripe, or test cards where they are taken. */
export const cardPaymentAvailable = (): boolean => getEnv().cardPayments !== "unavailable";

/** Stripe when its keys are set, otherwise the offline test-card processor. */
export function getPaymentProvider(): PaymentProvider {
  return stripeConfigured() ? stripeProvider : offlineProvider;
}
