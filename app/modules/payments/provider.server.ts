import { getEnv } from "../../utils/env.server.ts";
import { offlineProvider } from "./offline.server.ts";
import type { PaymentProvider } from "./provider.ts";
import { stripeProvider } from "./stripe.server.ts";

export const stripeConfigured = (): boolean => Boolean(getEnv().STRIPE_SECRET_KEY);

/** Stripe when its keys are set, otherwise the offline test-card processor. */
export function getPaymentProvider(): PaymentProvider {
  return stripeConfigured() ? stripeProvider : offlineProvider;
}
