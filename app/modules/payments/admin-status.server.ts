import { changeOrderStatus, getOrder, type StatusChange } from "#app/modules/shop/orders.server.ts";
import type { OrderStatus } from "#app/modules/shop/orders.ts";
import { fulfil } from "#app/modules/payments/fulfil.server.ts";
import { getPaymentProvider } from "#app/modules/payments/provider.server.ts";

export type AdminStatusChange = StatusChange | { ok: false; reason: "paid" | "processing" };

/**
 * An admin's status change. Cancelling a Pending order first cancels its payment with the
 * provider, so the customer can no longer pay for nothing; when the payment succeeded meanwhile
 * the cancel is refused and the order confirmed instead, so no money is ever left without credits.
 */
export async function adminChangeOrderStatus(orderId: number, status: OrderStatus): Promise<AdminStatusChange> {
  const order = await getOrder(orderId);
  if (!order) return { ok: false, reason: "not-found" };
  if (order.status === "Pending" && status === "Cancelled") {
    const payment = await getPaymentProvider().cancelPayment(order);
    if (payment.status === "processing") return { ok: false, reason: "processing" };
    if (payment.status === "paid") {
      await fulfil(order.id, payment.paymentId);
      return { ok: false, reason: "paid" };
    }
  }
  return await changeOrderStatus(orderId, status);
}
