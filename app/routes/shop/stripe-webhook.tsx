import { stripeConfigured } from "#app/modules/payments/provider.server.ts";
import { verifyWebhook } from "#app/modules/payments/stripe.server.ts";
import { handleStripeEvent } from "#app/modules/payments/stripe-webhook.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/stripe-webhook";
import { log } from "#app/utils/log.server.ts";

/** Stripe's webhook: the signature is checked over the raw body before anything is parsed. */
export async function action({ request }: Route.ActionArgs) {
  if (!stripeConfigured()) throw notFound();
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405 });
  const rawBody = await request.text();
  let event;
  try {
    event = verifyWebhook(rawBody, request.headers.get("stripe-signature"));
  } catch {
    return Response.json({ error: "Invalid signature" }, { status: 400 });
  }
  const outcome = await handleStripeEvent(event);
  if (outcome.handled && (outcome.result.status === "mismatch" || outcome.result.status === "conflict")) {
    // Money arrived that cannot confirm its order (e.g. paid twice): someone must look at it.
    log("warn", "payment", `${event.type} ${event.id}: ${outcome.result.status}: ${outcome.result.reason}`);
  }
  if (outcome.handled && outcome.result.status === "reversed" && outcome.result.shortfall > 0) {
    // Money went back to the customer for credits already spent: the operator bears it.
    log(
      "warn",
      "payment",
      `${event.type} ${event.id}: order ${outcome.result.orderId}: ${outcome.result.shortfall} credits were already spent (shortfall)`,
    );
  }
  return Response.json({ received: true });
}
