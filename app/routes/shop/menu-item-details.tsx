import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { useState } from "react";
import { data, Form, href, useNavigation } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList } from "#app/components/ui/field.tsx";
import { Card } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { addToCart } from "#app/modules/shop/cart.server.ts";
import { AddToCartSchema } from "#app/modules/shop/package-forms.ts";
import { CATEGORY_LABELS, MAX_LINE_QUANTITY, packageTitle } from "#app/modules/shop/packages.ts";
import { getPackage } from "#app/modules/shop/packages.server.ts";
import { formatDollars, formatNumber } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { cardPaymentAvailable } from "#app/modules/payments/provider.server.ts";
import { CardPaymentUnavailable } from "#app/components/shop/card-payment-unavailable.tsx";
import type { Route } from "./+types/menu-item-details";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${packageTitle(loaderData.item.name)} | SMS Gateway` : "Package | SMS Gateway" },
];

// The stepper buttons belong to their own GET form, so Enter in the quantity field means Add to Cart.
const STEPPER_FORM = "quantity-stepper";

const clampQuantity = (n: number) => (Number.isInteger(n) ? Math.min(Math.max(n, 1), MAX_LINE_QUANTITY) : 1);

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const item = await getPackage(idOf(params.menuItemId));
  if (!item) throw notFound();
  // Without JavaScript the stepper's buttons are links in disguise: a GET with the next quantity.
  const quantity = clampQuantity(Number(new URL(request.url).searchParams.get("quantity") ?? 1));
  return {
    item: {
      id: item.id,
      name: item.name,
      description: item.description,
      category: item.category,
      specialTag: item.specialTag,
      priceCents: item.priceCents,
      credits: item.credits,
      image: item.image,
    },
    quantity,
    cardPaymentAvailable: cardPaymentAvailable(),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: AddToCartSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (!(await addToCart(user.id, idOf(params.menuItemId), submission.value.quantity))) throw notFound();
  return redirectWithToast(href("/"), { description: "Item added to cart successfully!" });
}

export default function MenuItemDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { item, cardPaymentAvailable } = loaderData;
  const navigation = useNavigation();
  const [quantity, setQuantity] = useState(String(loaderData.quantity));
  const [form, fields] = useForm({
    id: `add-to-cart-${item.id}`,
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddToCartSchema }),
    shouldRevalidate: "onInput",
  });
  const current = clampQuantity(Number(quantity));
  const step = (delta: 1 | -1) => (event: React.MouseEvent) => {
    event.preventDefault();
    setQuantity(String(clampQuantity(current + delta)));
  };
  const stepperButton =
    "h-10 w-10 rounded-md bg-white text-lg font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <Card className="grid gap-8 md:grid-cols-2">
      <div className="overflow-hidden rounded-lg bg-slate-100">
        {item.image ? (
          <img src={item.image} alt={packageTitle(item.name)} className="h-full w-full object-cover" />
        ) : null}
      </div>
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{packageTitle(item.name)}</h1>
        <div className="flex flex-wrap gap-2">
          <Badge tone="neutral">{CATEGORY_LABELS[item.category]}</Badge>
          {item.specialTag ? <Badge tone="warning">{item.specialTag}</Badge> : null}
        </div>
        <p className="text-slate-700">{item.description}</p>
        <p>
          <span className="text-3xl font-bold text-slate-900">{formatDollars(item.priceCents)}</span>
          <span className="ml-2 text-sm text-slate-500">{formatNumber(item.credits)} credits</span>
        </p>
        {cardPaymentAvailable ? null : <CardPaymentUnavailable />}
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <div>
            <label htmlFor={fields.quantity.id} className="mb-1 block text-sm font-medium text-slate-700">
              Quantity
            </label>
            <div className="flex items-center gap-2">
              <button
                type="submit"
                form={STEPPER_FORM}
                name="quantity"
                value={clampQuantity(current - 1)}
                aria-label="Decrease quantity"
                className={stepperButton}
                disabled={current <= 1}
                onClick={step(-1)}
              >
                −
              </button>
              <input
                id={fields.quantity.id}
                name={fields.quantity.name}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_LINE_QUANTITY}
                value={quantity}
                onChange={(e) => setQuantity(e.target.value)}
                aria-invalid={fields.quantity.errors ? true : undefined}
                aria-describedby={fields.quantity.errors ? fields.quantity.errorId : undefined}
                className="h-10 w-24 rounded-md border-0 px-3 text-center text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500 aria-[invalid]:ring-red-500"
              />
              <button
                type="submit"
                form={STEPPER_FORM}
                name="quantity"
                value={clampQuantity(current + 1)}
                aria-label="Increase quantity"
                className={stepperButton}
                disabled={current >= MAX_LINE_QUANTITY}
                onClick={step(1)}
              >
                +
              </button>
            </div>
            <ErrorList id={fields.quantity.errorId} errors={fields.quantity.errors} />
          </div>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={navigation.state === "submitting"}>
              Add to Cart
            </Button>
            <ButtonLink to={href("/")} variant="secondary">
              Back to Home
            </ButtonLink>
          </div>
        </Form>
        <form id={STEPPER_FORM} method="get" hidden />
      </div>
    </Card>
  );
}
