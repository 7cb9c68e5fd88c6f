// The offline test-card form's action (Stripe not configured): check the card, charge it, confirm
// the order and grant its credits, and answer the payment screen.
import { parseWithZod } from "#app/web/forms.ts";
import { data, href, redirect } from "react-router";
import { clock } from "#app/utils/clock.server.ts";
import { type OrderWithLines, recordPaymentFailure } from "#app/modules/shop/orders.server.ts";
import { cardSchema } from "#app/modules/payments/card.ts";
import { fulfil } from "#app/modules/payments/fulfil.server.ts";
import { CARD_PAYMENT_UNAVAILABLE } from "#app/modules/payments/card-payment-unavailable.ts";
import { chargeTestCard, testCardsAccepted } from "#app/modules/payments/offline.server.ts";
import { log } from "#app/utils/log.server.ts";

const serverCardSchema = cardSchema(() => clock.date());

// The card number and CVC are never sent back to the page.
const HIDDEN_FIELDS = ["cardNumber", "cvc"];

/**
 * Pays a payable order with a posted test card: the errors on the form (400), a decline recorded on
 * the order (402), a refusal when test cards are not accepted here (503, nothing recorded), or a redirect to the confirmation (or failed) page once fulfil() has run.
 */
export async function testCardPaymentAction(
  order: Pick<OrderWithLines, "id" | "totalCents" | "currency">,
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: serverCardSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: HIDDEN_FIELDS }), { status: 400 });
  const fail = (message: string, status: number) =>
    data(submission.reply({ formErrors: [message], hideFields: HIDDEN_FIELDS }), { status });
  try {
    if (!testCardsAccepted()) return fail(CARD_PAYMENT_UNAVAILABLE, 503);
    const charge = await chargeTestCard(order, submission.value.cardNumber);
    if (charge.status === "declined") {
      await recordPaymentFailure(order.id, charge.message);
      return fail(charge.message, 402);
    }
    const result = await fulfil(order.id, charge.id);
    return redirect(
      result.status === "confirmed"
        ? href("/order/orderconfirmed/:id", { id: String(order.id) })
        : `${href("/failed")}?orderId=${order.id}`,
    );
  } catch (error) {
    // The spec's message, on the form, with the button usable again: the order is still payable.
    log("error", "payment", "card payment failed", error);
    return fail("An unexpected error occurred.", 500);
  }
}
