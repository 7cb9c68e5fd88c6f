import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { lazy, Suspense } from "react";
import { data, Form, href, redirect, useNavigation } from "react-router";
import { OrderLines } from "#app/components/shop/order-lines.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { cardSchema, TEST_CARDS } from "#app/modules/payments/card.ts";
import { testCardPaymentAction } from "#app/routes/shop/payment.server.ts";
import { cardPaymentAvailable, stripeConfigured } from "#app/modules/payments/provider.server.ts";
import { CardPaymentUnavailable } from "#app/components/shop/card-payment-unavailable.tsx";
import { createCheckoutSession, ensurePaymentIntent } from "#app/modules/payments/stripe.server.ts";
import { isPaid, isPayable } from "#app/modules/shop/orders.ts";
import { getOrderForUser, orderLinesView } from "#app/modules/shop/orders.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDollars } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/payment";

// Loaded only when Stripe is configured and JavaScript runs.
const StripePaymentForm = lazy(() => import("#app/components/shop/stripe-payment-form.tsx"));

export const meta: Route.MetaFunction = () => [{ title: "Payment | SMS Gateway" }];

/** The signed-in user's Pending order named in `?orderId=`; anyone else's is a 404. */
async function payableOrder(request: Request) {
  const user = await requireUser(request);
  const orderId = Number(new URL(request.url).searchParams.get("orderId"));
  if (!Number.isInteger(orderId) || orderId < 1) throw redirect(href("/shoppingCart"));
  const order = await getOrderForUser(user.id, orderId);
  if (!order) throw notFound();
  if (isPaid(order.status)) throw redirect(href("/order/orderconfirmed/:id", { id: String(order.id) }));
  if (!isPayable(order.status)) throw redirect(href("/order/orderDetails/:id", { id: String(order.id) }));
  return order;
}

export async function loader({ request }: Route.LoaderArgs) {
  const order = await payableOrder(request);
  return {
    order: {
      id: order.id,
      pickupName: order.pickupName,
      pickupEmail: order.pickupEmail,
      pickupPhone: order.pickupPhone,
      totalCents: order.totalCents,
      totalCredits: order.totalCredits,
      paymentError: order.paymentError,
      lines: orderLinesView(order),
    },
    stripe: stripeConfigured() ? { publishableKey: getEnv().STRIPE_PUBLISHABLE_KEY ?? "" } : null,
    cardPaymentAvailable: cardPaymentAvailable(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const order = await payableOrder(request);
  const formData = await request.formData();
  if (stripeConfigured()) {
    const intent = formData.get("intent");
    if (intent === "stripe-intent") return await ensurePaymentIntent(order);
    if (intent === "stripe-checkout") return redirect(await createCheckoutSession(order));
    throw data("Unknown payment action", { status: 400 });
  }
  return testCardPaymentAction(order, formData);
}

function TestCardForm({ lastResult }: { lastResult: Route.ComponentProps["actionData"] }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "card-payment",
    lastResult: lastResult && "status" in lastResult ? lastResult : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cardSchema(() => new Date()) }),
    // Not onBlur: a blur-time validation while the submit button is being clicked swallows that click.
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
      <Field
        label="Card number"
        inputProps={{
          ...getInputProps(fields.cardNumber, { type: "text" }),
          inputMode: "numeric",
          autoComplete: "cc-number",
          placeholder: "4242 4242 4242 4242",
        }}
        errors={fields.cardNumber.errors}
      />
      <div className="grid grid-cols-2 gap-4">
        <Field
          label="Expiry (MM/YY)"
          inputProps={{
            ...getInputProps(fields.expiry, { type: "text" }),
            inputMode: "numeric",
            autoComplete: "cc-exp",
            placeholder: "12/30",
          }}
          errors={fields.expiry.errors}
        />
        <Field
          label="CVC"
          inputProps={{
            ...getInputProps(fields.cvc, { type: "text" }),
            inputMode: "numeric",
            autoComplete: "cc-csc",
            placeholder: "123",
          }}
          errors={fields.cvc.errors}
        />
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Processing ... " : "Submit Order"}
      </Button>
      <div className="rounded-md bg-slate-50 p-3 text-xs text-slate-600 ring-1 ring-inset ring-slate-200">
        <p className="font-medium text-slate-700">
          Test mode: no real card is charged and card numbers are never stored.
        </p>
        <ul className="mt-1 space-y-0.5">
          {TEST_CARDS.map((card) => (
            <li key={card.number}>
              <span className="font-mono">{card.number}</span> {card.outcome}
            </li>
          ))}
        </ul>
        <p className="mt-1">Any future expiry date and any CVC.</p>
      </div>
    </Form>
  );
}

/** Stripe Checkout: works without JavaScript; with it, the Payment Element takes over once loaded. */
function StripePayment({ publishableKey, orderId }: { publishableKey: string; orderId: number }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const checkout = (
    <Form method="post" className="space-y-4">
      <p className="text-sm text-slate-600">You will enter your card on Stripe's secure payment page.</p>
      <Button
        type="submit"
        name="intent"
        value="stripe-checkout"
        className="w-full"
        disabled={navigation.state !== "idle"}
      >
        {navigation.state !== "idle" ? "Processing ... " : "Submit Order"}
      </Button>
    </Form>
  );
  if (!hydrated) return checkout;
  return (
    <Suspense fallback={<p className="text-sm text-slate-600">Loading the payment form…</p>}>
      <StripePaymentForm publishableKey={publishableKey} orderId={orderId} fallback={checkout} />
    </Suspense>
  );
}

export default function Payment({ loaderData, actionData }: Route.ComponentProps) {
  const { order, stripe, cardPaymentAvailable } = loaderData;
  return (
    <div>
      <PageHeader title="Payment" subtitle={`Order ${order.id}`} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Order Summary</h2>
          <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Name</dt>
            <dd>{order.pickupName}</dd>
            <dt className="text-slate-600">Email</dt>
            <dd>{order.pickupEmail}</dd>
            <dt className="text-slate-600">Phone Number</dt>
            <dd>{order.pickupPhone}</dd>
          </dl>
          <OrderLines lines={order.lines} totalCents={order.totalCents} totalCredits={order.totalCredits} />
        </Card>
        <Card>
          <h2 className="mb-1 text-lg font-semibold text-slate-900">Pay by card</h2>
          <p className="mb-4 text-sm text-slate-600">
            Amount due: <strong data-testid="amount-due">{formatDollars(order.totalCents)}</strong>
          </p>
          {order.paymentError && !actionData ? (
            <p className="mb-4 text-sm text-red-600" role="alert">
              Your last payment attempt failed: {order.paymentError}
            </p>
          ) : null}
          {stripe ? (
            <StripePayment publishableKey={stripe.publishableKey} orderId={order.id} />
          ) : !cardPaymentAvailable ? (
            <CardPaymentUnavailable />
          ) : (
            <TestCardForm lastResult={actionData} />
          )}
        </Card>
      </div>
    </div>
  );
}
