import { href, Link } from "react-router";
import type { OrderStatus } from "#app/modules/shop/orders.ts";
import { formatDateTime, formatDollars } from "#app/utils/misc.ts";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { OrderStatusBadge } from "#app/components/shop/order-status-badge.tsx";

export type OrderRow = {
  id: number;
  createdAt: number;
  totalItems: number;
  totalCents: number;
  status: OrderStatus;
  contact?: { name: string; phone: string; email: string };
};

/** A customer's own orders, or (with contact details) the admin list. */
export function OrdersTable({
  orders,
  timeZone,
  withContact,
}: {
  orders: OrderRow[];
  timeZone: string;
  withContact?: boolean;
}) {
  return (
    <Table>
      <thead>
        <tr>
          <Th>Order ID</Th>
          {withContact ? (
            <>
              <Th>Name</Th>
              <Th>Phone</Th>
              <Th>Email</Th>
            </>
          ) : null}
          <Th>Date ({timeZone})</Th>
          <Th className="text-right">Items</Th>
          <Th className="text-right">Total</Th>
          <Th>Status</Th>
          <Th>Details</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {orders.map((o) => (
          <tr key={o.id} data-testid="order-row">
            <Td>{o.id}</Td>
            {withContact && o.contact ? (
              <>
                <Td>{o.contact.name}</Td>
                <Td className="whitespace-nowrap">{o.contact.phone}</Td>
                <Td className="break-all">{o.contact.email}</Td>
              </>
            ) : null}
            <Td className="whitespace-nowrap">{formatDateTime(o.createdAt, timeZone)}</Td>
            <Td className="text-right">{o.totalItems}</Td>
            <Td className="text-right">{formatDollars(o.totalCents)}</Td>
            <Td>
              <OrderStatusBadge status={o.status} />
            </Td>
            <Td>
              <Link to={href("/order/orderDetails/:id", { id: String(o.id) })} aria-label={`View order ${o.id}`}>
                View
              </Link>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
