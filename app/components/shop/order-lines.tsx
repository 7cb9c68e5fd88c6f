import { packageTitle } from "#app/modules/shop/packages.ts";
import { formatDollars, formatNumber } from "#app/utils/misc.ts";
import { Table, Td, Th } from "#app/components/ui/table.tsx";

type Line = { id: number; itemName: string; priceCents: number; credits: number; quantity: number };

/** An order's lines with their totals, as the order recorded them (not today's prices). */
export function OrderLines({
  lines,
  totalCents,
  totalCredits,
}: {
  lines: Line[];
  totalCents: number;
  totalCredits: number;
}) {
  return (
    <Table>
      <thead>
        <tr>
          <Th>Item</Th>
          <Th className="text-right">Price</Th>
          <Th className="text-right">Quantity</Th>
          <Th className="text-right">Credits</Th>
          <Th className="text-right">Total</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {lines.map((line) => (
          <tr key={line.id}>
            <Td>{packageTitle(line.itemName)}</Td>
            <Td className="text-right">{formatDollars(line.priceCents)}</Td>
            <Td className="text-right">{line.quantity}</Td>
            <Td className="text-right">{formatNumber(line.credits * line.quantity)}</Td>
            <Td className="text-right">{formatDollars(line.priceCents * line.quantity)}</Td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="font-semibold">
          <Td colSpan={3}>Total</Td>
          <Td className="text-right">{formatNumber(totalCredits)}</Td>
          <Td className="text-right">{formatDollars(totalCents)}</Td>
        </tr>
      </tfoot>
    </Table>
  );
}
