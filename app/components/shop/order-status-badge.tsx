import type { OrderStatus } from "#app/modules/shop/orders.ts";
import { Badge, type BadgeTone } from "#app/components/ui/badge.tsx";

const STATUS_TONES: Record<OrderStatus, BadgeTone> = {
  Confirmed: "primary",
  Pending: "secondary",
  Cancelled: "danger",
  Completed: "success",
  "Being Cooked": "info",
  "Ready for Pickup": "warning",
  Refunded: "neutral",
  Disputed: "danger",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{status}</Badge>;
}
