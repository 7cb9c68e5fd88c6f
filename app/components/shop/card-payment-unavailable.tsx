import { href, Link } from "react-router";
import { Notice } from "#app/components/ui/page.tsx";
import { CARD_PAYMENT_UNAVAILABLE } from "#app/modules/payments/card-payment-unavailable.ts";

/** The shop's word that no card is taken here, and where to ask for credits instead. Plain HTML. */
export function CardPaymentUnavailable({ className }: { className?: string }) {
  return (
    <Notice tone="warning" className={className}>
      <p data-testid="card-payment-unavailable">
        {CARD_PAYMENT_UNAVAILABLE} <Link to={href("/sms/contact")}>Contact us</Link>
      </p>
    </Notice>
  );
}
