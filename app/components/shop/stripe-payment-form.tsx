import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { href, useFetcher, useNavigate } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList } from "#app/components/ui/field.tsx";

const UNEXPECTED = "An unexpected error occurred.";

function CardForm({ orderId }: { orderId: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError(null);
    const returnPath = `${href("/payment/return")}?orderId=${orderId}`;
    try {
      // Redirects only for methods that need it (3-D Secure pages, banks); cards come back here.
      const result = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: new URL(returnPath, window.location.origin).href },
        redirect: "if_required",
      });
      if (result.error) {
        setError(result.error.message ?? UNEXPECTED);
        setBusy(false);
        return;
      }
      // The server asks Stripe itself before it confirms anything.
      void navigate(`${returnPath}&payment_intent=${encodeURIComponent(result.paymentIntent.id)}`);
    } catch {
      setError(UNEXPECTED);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <PaymentElement />
      <ErrorList errors={error ? [error] : undefined} />
      <Button type="submit" className="w-full" disabled={!stripe || busy}>
        {busy ? "Processing ... " : "Submit Order"}
      </Button>
    </form>
  );
}

/** The Payment Element; shows `fallback` (Stripe Checkout) when Stripe.js cannot be loaded. */
export default function StripePaymentForm({
  publishableKey,
  orderId,
  fallback,
}: {
  publishableKey: string;
  orderId: number;
  fallback: ReactNode;
}) {
  const intent = useFetcher<{ clientSecret: string }>();
  const [failed, setFailed] = useState(false);
  const stripe = useMemo<Promise<Stripe | null>>(
    () =>
      loadStripe(publishableKey).catch(() => {
        setFailed(true);
        return null;
      }),
    [publishableKey],
  );
  const requested = useRef(false);
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    // A POST, not the loader: creating the PaymentIntent is a change at Stripe.
    void intent.submit(
      { intent: "stripe-intent" },
      { method: "post", action: `${href("/payment")}?orderId=${orderId}` },
    );
  }, [intent, orderId]);

  if (failed || (intent.state === "idle" && requested.current && !intent.data)) {
    return (
      <div className="space-y-4">
        <ErrorList errors={[UNEXPECTED]} />
        {fallback}
      </div>
    );
  }
  if (!intent.data) return <p className="text-sm text-slate-600">Loading the payment form…</p>;
  return (
    <Elements stripe={stripe} options={{ clientSecret: intent.data.clientSecret }}>
      <CardForm orderId={orderId} />
    </Elements>
  );
}
