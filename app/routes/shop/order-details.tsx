import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, useNavigation } from "react-router";
import { OrderLines } from "#app/components/shop/order-lines.tsx";
import { OrderStatusBadge } from "#app/components/shop/order-status-badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList, SelectField } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireAdmin, requireUser } from "#app/routes/auth/guards.server.ts";
import { adminChangeOrderStatus } from "#app/modules/payments/admin-status.server.ts";
import {
  CANCEL_REFUSALS,
  describeStatusChange,
  isPaid,
  isPayable,
  nextStatuses,
  StatusChangeSchema,
} from "#app/modules/shop/orders.ts";
import { getOrderForViewer, orderLinesView } from "#app/modules/shop/orders.server.ts";
import { formatDateTime, formatDollars, formatNumber } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/order-details";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Order ${params.id} | SMS Gateway` }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const order = await getOrderForViewer(user, idOf(params.id));
  if (!order) throw notFound();
  const isAdmin = user.role === "admin";
  return {
    isAdmin,
    isOwner: order.userId === user.id,
    timeZone: user.timeZone,
    nextStatuses: isAdmin ? nextStatuses(order.status) : [],
    order: {
      id: order.id,
      pickupName: order.pickupName,
      pickupEmail: order.pickupEmail,
      pickupPhone: order.pickupPhone,
      status: order.status,
      totalCents: order.totalCents,
      totalItems: order.totalItems,
      totalCredits: order.totalCredits,
      creditsReversed: order.creditsReversed,
      creditsShortfall: order.creditsShortfall,
      refundedCents: order.refundedCents,
      createdAt: order.createdAt.getTime(),
      paymentId: isAdmin ? order.paymentId : null,
      lines: orderLinesView(order),
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: StatusChangeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const change = await adminChangeOrderStatus(idOf(params.id), submission.value.status);
  if (!change.ok) {
    if (change.reason === "not-found") throw notFound();
    const message =
      change.reason === "not-allowed" ? "This order cannot move to that status." : CANCEL_REFUSALS[change.reason];
    return data(submission.reply({ formErrors: [message] }), { status: 409 });
  }
  return redirectWithToast(href("/order/orderDetails/:id", { id: params.id }), {
    description: describeStatusChange(change),
  });
}

function StatusForm({ options, lastResult }: { options: string[]; lastResult: Route.ComponentProps["actionData"] }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "order-status",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: StatusChangeSchema }),
  });
  if (options.length === 0)
    return <p className="text-sm text-slate-600">A cancelled, refunded or disputed order cannot change status.</p>;
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="flex flex-wrap items-end gap-3">
      <SelectField label="New status" selectProps={getSelectProps(fields.status)} errors={fields.status.errors}>
        {options.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </SelectField>
      <Button type="submit" disabled={navigation.state === "submitting"}>
        Update Status
      </Button>
      <ErrorList id={form.errorId} errors={form.errors} />
    </Form>
  );
}

export default function OrderDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { order, isAdmin, isOwner, timeZone } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Order Summary"
        subtitle={`Order ${order.id}`}
        actions={
          <ButtonLink to={isAdmin && !isOwner ? href("/order/allOrders") : href("/order/myOrders")} variant="secondary">
            Back to Orders
          </ButtonLink>
        }
      />
      <Card>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <div>
            <dt className="text-slate-500">Name</dt>
            <dd className="font-medium">{order.pickupName}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Email</dt>
            <dd className="font-medium break-all">{order.pickupEmail}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Phone Number</dt>
            <dd className="font-medium">{order.pickupPhone}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Date ({timeZone})</dt>
            <dd className="font-medium">{formatDateTime(order.createdAt, timeZone)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Status</dt>
            <dd>
              <OrderStatusBadge status={order.status} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Total</dt>
            <dd className="font-medium">
              {formatDollars(order.totalCents)} · {order.totalItems} {order.totalItems === 1 ? "item" : "items"}
            </dd>
          </div>
          {order.creditsReversed > 0 ? (
            <div>
              <dt className="text-slate-500">Credits reversed</dt>
              <dd className="font-medium">{formatNumber(order.creditsReversed)}</dd>
            </div>
          ) : null}
          {order.refundedCents > 0 ? (
            <div>
              <dt className="text-slate-500">Refunded</dt>
              <dd className="font-medium">
                {formatDollars(order.refundedCents)} of {formatDollars(order.totalCents)}
              </dd>
            </div>
          ) : null}
          {order.creditsShortfall > 0 ? (
            <div>
              <dt className="text-slate-500">Credits already spent (shortfall)</dt>
              <dd className="font-medium">{formatNumber(order.creditsShortfall)}</dd>
            </div>
          ) : null}
          {order.paymentId ? (
            <div>
              <dt className="text-slate-500">Payment</dt>
              <dd className="font-mono text-xs break-all">{order.paymentId}</dd>
            </div>
          ) : null}
        </dl>
        {isOwner && isPayable(order.status) ? (
          <div className="mt-4">
            <ButtonLink to={`${href("/payment")}?orderId=${order.id}`}>Pay Now</ButtonLink>
          </div>
        ) : null}
      </Card>
      <OrderLines lines={order.lines} totalCents={order.totalCents} totalCredits={order.totalCredits} />
      {isAdmin ? (
        <Card>
          <h2 className="mb-3 text-lg font-semibold text-slate-900">Change status</h2>
          <StatusForm options={loaderData.nextStatuses} lastResult={actionData} />
          {isPaid(order.status) ? (
            <p className="mt-3 text-xs text-slate-500">
              Cancelling takes this order's credits back from the customer, as far as they have not been spent.
            </p>
          ) : isPayable(order.status) ? (
            <p className="mt-3 text-xs text-slate-500">
              Cancelling also cancels the payment, so the customer can no longer pay this order.
            </p>
          ) : null}
        </Card>
      ) : null}
    </div>
  );
}
