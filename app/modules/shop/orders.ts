import { z } from "zod";
import { ORDER_STATUSES, type OrderStatus } from "#app/db/enums.ts";
import { formatNumber } from "#app/utils/misc.ts";

// Browser-safe: order statuses and their rules, the status-change message, the details form and the admin list's URL state.

export { ORDER_STATUSES, type OrderStatus };
/** Set only by the payment provider's refund and dispute events, never by hand. */
const PROVIDER_STATUSES: readonly OrderStatus[] = ["Refunded", "Disputed"];

/** Waiting for payment: the only status the payment page accepts. */
export function isPayable(status: OrderStatus): boolean {
  return status === "Pending";
}

/** Paid and not taken back: the customer holds this order's credits (Confirmed through Completed). */
export function isPaid(status: OrderStatus): boolean {
  return status !== "Pending" && status !== "Cancelled" && !PROVIDER_STATUSES.includes(status);
}

/**
 * Paid orders move freely along the fulfilment flow; a pending order can only be cancelled;
 * cancelled, refunded and disputed are final.
 */
export function nextStatuses(current: OrderStatus): OrderStatus[] {
  if (current === "Pending") return ["Cancelled"];
  if (!isPaid(current)) return [];
  return ORDER_STATUSES.filter((s) => s !== "Pending" && s !== current && !PROVIDER_STATUSES.includes(s));
}

/** Why an admin's cancellation of a Pending order was refused: the payment provider has the last word. */
export const CANCEL_REFUSALS = {
  paid: "This order was paid meanwhile, so it was not cancelled: it is now Confirmed and its credits are granted. Cancel it again to take them back.",
  processing:
    "This order's payment is still processing, so it cannot be cancelled now. Try again once the payment has settled.",
} as const;

/** What the admin is told after a status change; for a cancellation, what happened to the order's credits. */
export function describeStatusChange(change: {
  status: OrderStatus;
  wasPaid: boolean;
  credits: number;
  reversed: number;
}): string {
  if (change.status !== "Cancelled") return `Order status updated to ${change.status}.`;
  if (!change.wasPaid) return "Order cancelled. It was never paid, so no credits were involved.";
  const credits = formatNumber(change.credits);
  if (change.reversed === change.credits)
    return `Order cancelled. ${credits} credits were taken back from the customer's balance.`;
  if (change.reversed === 0) {
    return `Order cancelled. No credits were taken back: the customer has already spent the ${credits} credits of this order.`;
  }
  return `Order cancelled. ${formatNumber(change.reversed)} of ${credits} credits were taken back; the customer had already spent the other ${formatNumber(change.credits - change.reversed)}.`;
}

export const ADMIN_STATUS_FILTERS = [
  "Confirmed",
  "Being Cooked",
  "Ready for Pickup",
  "Cancelled",
  "Refunded",
  "Disputed",
] as const;
export const PAGE_SIZES = [5, 10, 15, 20] as const;
export const MY_ORDERS_PAGE_SIZE = 10;

export type AdminOrderQuery = { q: string; status: OrderStatus | ""; page: number; size: number };

/**
 * `?q=&status=&page=&size=`; anything unknown falls back to the defaults (All, page 1, 5 rows). A
 * page past the end is the search's to bring back to the last page.
 */
export function parseAdminOrderQuery(params: URLSearchParams): AdminOrderQuery {
  const size = Number(params.get("size"));
  const page = Number(params.get("page"));
  return {
    q: (params.get("q") ?? "").trim().slice(0, 100),
    status: ORDER_STATUSES.find((s) => s === params.get("status")) ?? "",
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, 1_000_000) : 1,
    size: PAGE_SIZES.find((s) => s === size) ?? 5,
  };
}

export const OrderDetailsSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters"),
  email: z
    .string({ error: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .pipe(z.email("Enter a valid email address")),
  phone: z
    .string({ error: "Phone Number is required" })
    .trim()
    .min(1, "Phone Number is required")
    .regex(/^\+?[0-9][0-9 ()-]{5,22}[0-9]$/, "Enter a valid phone number"),
});

export const StatusChangeSchema = z.object({ status: z.enum(ORDER_STATUSES, { error: "Choose a status" }) });
