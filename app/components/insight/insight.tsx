// Pieces the customer dashboard and the admin overview share: the period form, a figure, the messages chart.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { BarChart, type BarSeries } from "#app/components/bar-chart.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { SelectField } from "#app/components/ui/field.tsx";
import { type DayCounts, PERIODS, type Period } from "#app/modules/insight/periods.ts";
import { formatNumber } from "#app/utils/misc.ts";

/** A GET form: the period lives in the URL (?days=30), so it works without JavaScript and can be linked. */
export function PeriodForm({ days }: { days: Period }) {
  return (
    <Form
      method="get"
      className="mb-6 flex flex-wrap items-end gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <SelectField label="Period" selectProps={{ name: "days", defaultValue: String(days) }}>
        {PERIODS.map((period) => (
          <option key={period} value={period}>
            Last {period} days
          </option>
        ))}
      </SelectField>
      <Button type="submit">Show</Button>
    </Form>
  );
}

export function Figure({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

type MessageKey = "delivered" | "failed" | "pending" | "inbound";
const MESSAGE_SERIES: BarSeries<MessageKey>[] = [
  { key: "delivered", label: "Delivered", fill: "fill-emerald-500", swatch: "bg-emerald-500" },
  { key: "failed", label: "Failed", fill: "fill-rose-500", swatch: "bg-rose-500" },
  { key: "pending", label: "Pending", fill: "fill-amber-400", swatch: "bg-amber-400" },
  { key: "inbound", label: "Inbound", fill: "fill-sky-500", swatch: "bg-sky-500" },
];

/** A share (0 to 1) as a percentage with one decimal. */
export const percentText = (share: number): string => `${(share * 100).toFixed(1)} %`;

export function deliveryRateText(rate: number | null): string {
  return rate === null ? "–" : percentText(rate);
}

/** Messages per local day stacked by outcome, with a one-paragraph summary of the period. */
export function MessagesChart({
  days,
  totals,
  timeZone,
}: {
  days: Omit<DayCounts, "credits">[];
  totals: { sent: number; delivered: number; failed: number; pending: number; inbound: number };
  timeZone: string;
}) {
  const busiest = days.reduce<(typeof days)[number] | null>(
    (best, day) =>
      day.delivered + day.failed + day.pending > (best ? best.delivered + best.failed + best.pending : 0) ? day : best,
    null,
  );
  const summary =
    `${formatNumber(totals.sent)} messages sent from ${days[0]?.date} to ${days.at(-1)?.date} (days in ${timeZone}): ` +
    `${formatNumber(totals.delivered)} delivered, ${formatNumber(totals.failed)} failed, ` +
    `${formatNumber(totals.pending)} pending; ${formatNumber(totals.inbound)} received.` +
    (busiest
      ? ` Busiest day: ${busiest.date} with ${formatNumber(busiest.delivered + busiest.failed + busiest.pending)} sent.`
      : "");
  return (
    <BarChart
      title="Messages per day"
      summary={summary}
      series={MESSAGE_SERIES}
      data={days.map((day) => ({ ...day, label: day.date }))}
    />
  );
}
