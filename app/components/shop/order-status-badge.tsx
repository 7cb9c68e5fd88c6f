import { STATUS_TONES, type OrderStatus } from "../../modules/shop/orders.ts";
import { Badge } from "../ui/badge.tsx";

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{status}</Badge>;
}
