import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, redirect, useFetcher, useNavigation } from "react-router";
import { z } from "zod";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { type CartLine, getCart, removeCartLine, stepCartLine } from "#app/modules/shop/cart.server.ts";
import { OrderDetailsSchema } from "#app/modules/shop/orders.ts";
import { QuotaExceededError } from "#app/modules/quotas/quotas.server.ts";
import { createOrderFromCart } from "#app/modules/shop/orders.server.ts";
import { packageTitle } from "#app/modules/shop/packages.ts";
import { formatDollars, formatNumber } from "#app/utils/misc.ts";
import { CARD_PAYMENT_UNAVAILABLE } from "#app/modules/payments/card-payment-unavailable.ts";
import { cardPaymentAvailable } from "#app/modules/payments/provider.server.ts";
import { CardPaymentUnavailable } from "#app/components/shop/card-payment-unavailable.tsx";
import type { Route } from "./+types/shopping-cart";

export const meta: Route.MetaFunction = () => [{ title: "Shopping Cart | SMS Gateway" }];

const EMPTY_CART = "There are no items in your cart. Please add items to continue.";

const LineSchema = z.object({
  intent: z.enum(["increment", "decrement", "remove"]),
  packageId: z.coerce.number().int().positive(),
});

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return {
    cart: await getCart(user.id),
    contact: { name: user.fullName, email: user.email },
    cardPaymentAvailable: cardPaymentAvailable(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  if (formData.get("intent") === "place-order") {
    // Only the contact details are read: prices and totals come from the database.
    const submission = parseWithZod(formData, { schema: OrderDetailsSchema });
    // No order that nothing could pay.
    if (!cardPaymentAvailable())
      return data(submission.reply({ formErrors: [CARD_PAYMENT_UNAVAILABLE] }), { status: 503 });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    let placed: Awaited<ReturnType<typeof createOrderFromCart>>;
    try {
      placed = await createOrderFromCart(user.id, submission.value);
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      return data(submission.reply({ formErrors: [error.message] }), { status: 400 });
    }
    if (!placed.ok) return data(submission.reply({ formErrors: [EMPTY_CART] }), { status: 400 });
    return redirect(`${href("/payment")}?orderId=${placed.orderId}`);
  }
  const line = LineSchema.safeParse(Object.fromEntries(formData));
  if (!line.success) throw data("Unknown cart action", { status: 400 });
  const { intent, packageId } = line.data;
  if (intent === "remove") await removeCartLine(user.id, packageId);
  else await stepCartLine(user.id, packageId, intent === "increment" ? 1 : -1);
  // A plain redirect back, so a reload never repeats the change.
  return redirect(href("/shoppingCart"));
}

function LineControls({ line }: { line: CartLine }) {
  const fetcher = useFetcher();
  const title = packageTitle(line.name);
  // While a change is in flight, show where it is heading.
  const pending = fetcher.formData?.get("intent");
  const quantity =
    pending === "increment" ? line.quantity + 1 : pending === "decrement" ? line.quantity - 1 : line.quantity;
  const button =
    "h-8 w-8 rounded-md bg-white font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50";
  if (pending === "remove" || quantity < 1) return <p className="text-sm text-slate-500">Removing…</p>;
  return (
    <fetcher.Form method="post" className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="packageId" value={line.packageId} />
      <button
        type="submit"
        name="intent"
        value="decrement"
        className={button}
        aria-label={`Decrease quantity of ${title}`}
      >
        −
      </button>
      <span className="w-10 text-center font-medium" aria-label={`Quantity of ${title}`} data-testid="line-quantity">
        {quantity}
      </span>
      <button
        type="submit"
        name="intent"
        value="increment"
        className={button}
        aria-label={`Increase quantity of ${title}`}
      >
        +
      </button>
      <Button
        type="submit"
        name="intent"
        value="remove"
        variant="ghost"
        size="sm"
        className="text-red-700"
        aria-label={`Remove ${title}`}
      >
        Remove
      </Button>
    </fetcher.Form>
  );
}

export default function ShoppingCart({ loaderData, actionData }: Route.ComponentProps) {
  const { cart, contact, cardPaymentAvailable } = loaderData;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "order-details",
    lastResult: actionData,
    defaultValue: { name: contact.name, email: contact.email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OrderDetailsSchema }),
    // Not onBlur: a blur-time validation while the submit button is being clicked swallows that click.
    shouldRevalidate: "onInput",
  });
  const placing = navigation.state !== "idle" && navigation.formData?.get("intent") === "place-order";
  const empty = cart.lines.length === 0;
  return (
    <div>
      <PageHeader title="Shopping Cart" />
      {cardPaymentAvailable ? null : <CardPaymentUnavailable className="mb-6" />}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Cart Summary</h2>
          {empty ? (
            <div className="space-y-4">
              <p className="text-slate-600">{EMPTY_CART}</p>
              <ButtonLink to={href("/")} variant="secondary">
                Back to Home
              </ButtonLink>
            </div>
          ) : (
            <ul className="divide-y divide-slate-100">
              {cart.lines.map((line) => (
                <li key={line.packageId} className="flex flex-wrap items-center gap-4 py-4" data-testid="cart-line">
                  <div className="h-16 w-24 shrink-0 overflow-hidden rounded bg-slate-100">
                    {line.image ? <img src={line.image} alt="" className="h-full w-full object-cover" /> : null}
                  </div>
                  <div className="min-w-40 flex-1">
                    <p className="font-medium text-slate-900">{packageTitle(line.name)}</p>
                    <p className="text-sm text-slate-500">
                      {formatDollars(line.priceCents)} each · {formatNumber(line.credits)} credits
                    </p>
                  </div>
                  <LineControls line={line} />
                  <p className="ml-auto min-w-20 text-right font-semibold text-slate-900" data-testid="line-total">
                    {formatDollars(line.lineCents)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Order Details</h2>
          <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
            <Field
              label="Name"
              inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
              errors={fields.name.errors}
            />
            <Field
              label="Email"
              inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
              errors={fields.email.errors}
            />
            <Field
              label="Phone Number"
              inputProps={{
                ...getInputProps(fields.phone, { type: "tel" }),
                autoComplete: "tel",
                placeholder: "+1 555 123 4567",
              }}
              errors={fields.phone.errors}
            />
            <dl className="space-y-1 border-t border-slate-100 pt-4 text-sm">
              <div className="flex justify-between">
                <dt className="text-slate-600">No of items</dt>
                <dd data-testid="total-items">{cart.totalItems}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-slate-600">Credits</dt>
                <dd>{formatNumber(cart.totalCredits)}</dd>
              </div>
              <div className="flex justify-between text-base font-semibold">
                <dt>Grand Total</dt>
                <dd data-testid="grand-total">{formatDollars(cart.totalCents)}</dd>
              </div>
            </dl>
            <ErrorList id={form.errorId} errors={form.errors} />
            <Button
              type="submit"
              name="intent"
              value="place-order"
              className="w-full"
              disabled={empty || placing || !cardPaymentAvailable}
            >
              Place Order
            </Button>
          </Form>
        </Card>
      </div>
    </div>
  );
}
