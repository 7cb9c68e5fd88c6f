import { useId, useState } from "react";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { cn } from "#app/web/class-names.ts";

export type BarSeries<Key extends string> = {
  key: Key;
  label: string;
  /** Tailwind classes for the bar (fill-*) and the legend swatch (bg-*). */
  fill: string;
  swatch: string;
};
export type BarDatum<Key extends string> = { label: string } & Record<Key, number>;

/** The smallest of 1, 2 or 5 times a power of ten at or above `value` (the axis top). */
function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= value)!;
}

const GRID = [0.25, 0.5, 0.75];

/**
 * A stacked bar chart drawn as SVG on the server, so it shows without JavaScript: a title, a text
 * summary, a legend, and the same numbers as a table in a <details>. Each bar's numbers are its
 * SVG <title> without JavaScript and a tooltip with it.
 */
export function BarChart<Key extends string>({
  title,
  summary,
  series,
  data,
  format = formatNumber,
  labelHeader = "Day",
}: {
  title: string;
  summary: string;
  series: BarSeries<Key>[];
  data: BarDatum<Key>[];
  format?: (value: number) => string;
  labelHeader?: string;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const [hovered, setHovered] = useState<number | null>(null);
  const total = (datum: BarDatum<Key>) => series.reduce((sum, s) => sum + datum[s.key], 0);
  const top = niceCeiling(Math.max(0, ...data.map(total)));
  const describe = (datum: BarDatum<Key>) =>
    `${datum.label}: ${series.map((s) => `${format(datum[s.key])} ${s.label.toLowerCase()}`).join(", ")}`;
  const slot = 10;
  const width = Math.max(1, data.length) * slot;
  const ticks = data.length > 1 ? [0, Math.floor((data.length - 1) / 2), data.length - 1] : [0];

  return (
    <figure className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="bar-chart">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p id={`${id}-summary`} className="mt-1 text-sm text-slate-600">
        {summary}
      </p>
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <span className={cn("inline-block h-3 w-3 rounded-sm", s.swatch)} />
            {s.label}
          </li>
        ))}
      </ul>
      <div className="relative mt-3 pl-10">
        {/* The plot area alone: the y labels line up with its top, middle and baseline. */}
        <div className="relative">
          <span className="absolute top-0 -left-10 w-9 -translate-y-1/2 text-right text-xs text-slate-500">
            {format(top)}
          </span>
          <span className="absolute top-1/2 -left-10 w-9 -translate-y-1/2 text-right text-xs text-slate-500">
            {format(top / 2)}
          </span>
          <span className="absolute bottom-0 -left-10 w-9 translate-y-1/2 text-right text-xs text-slate-500">0</span>
          <svg
            role="img"
            aria-labelledby={`${id}-title`}
            aria-describedby={`${id}-summary`}
            viewBox={`0 0 ${width} 100`}
            preserveAspectRatio="none"
            className="block h-48 w-full"
            onMouseLeave={() => setHovered(null)}
          >
            {GRID.map((line) => (
              <line
                key={line}
                x1={0}
                x2={width}
                y1={100 * line}
                y2={100 * line}
                className="stroke-slate-200"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            <line x1={0} x2={width} y1={100} y2={100} className="stroke-slate-400" vectorEffect="non-scaling-stroke" />
            {data.map((datum, i) => {
              let y = 100;
              return (
                <g
                  key={datum.label}
                  data-testid="chart-bar"
                  onMouseEnter={() => setHovered(i)}
                  className={cn(hovered === i && "opacity-80")}
                >
                  {/* The whole slot answers the pointer, so short bars are easy to hover. */}
                  <rect x={i * slot} y={0} width={slot} height={100} fill="transparent" />
                  {series.map((s) => {
                    const height = (100 * datum[s.key]) / top;
                    y -= height;
                    return height > 0 ? (
                      <rect key={s.key} x={i * slot + 1} y={y} width={slot - 2} height={height} className={s.fill} />
                    ) : null;
                  })}
                  {hydrated ? null : <title>{describe(datum)}</title>}
                </g>
              );
            })}
          </svg>
        </div>
        {hovered !== null && data[hovered] ? (
          <div
            role="status"
            data-testid="chart-tooltip"
            className="pointer-events-none absolute top-2 z-10 w-max max-w-56 -translate-x-1/2 rounded bg-slate-900 px-2 py-1 text-xs text-white shadow"
            style={{ left: `calc(2.5rem + (100% - 2.5rem) * ${(hovered + 0.5) / data.length})` }}
          >
            <p className="font-semibold">{data[hovered].label}</p>
            {series.map((s) => (
              <p key={s.key}>
                {s.label}: {format(data[hovered][s.key])}
              </p>
            ))}
          </div>
        ) : null}
        <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
          {ticks.map((i) => (
            <span key={i}>{data[i]?.label}</span>
          ))}
        </div>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-brand-700">Show the numbers as a table</summary>
        <div className="mt-2 max-h-80 overflow-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="chart-table">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1 text-left">
                  {labelHeader}
                </th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="px-2 py-1 text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.map((datum) => (
                <tr key={datum.label}>
                  <th scope="row" className="px-2 py-1 text-left font-normal whitespace-nowrap">
                    {datum.label}
                  </th>
                  {series.map((s) => (
                    <td key={s.key} className="px-2 py-1 text-right">
                      {format(datum[s.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
