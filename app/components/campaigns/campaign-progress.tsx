import {
  OUTCOME_LABELS,
  OUTCOMES,
  type OutcomeCounts,
  settledPercent,
} from "#app/modules/campaigns/campaign-counts.ts";
import { formatNumber } from "#app/utils/misc.ts";

const FILLS = {
  delivered: "fill-emerald-500",
  failed: "fill-red-500",
  sent: "fill-sky-400",
  queued: "fill-slate-400",
} as const;

/**
 * A campaign's way to delivery: one bar stacked delivered, failed, sent (awaiting its receipt),
 * queued. Its value is the share of messages with a final outcome, not the share queued.
 */
export function CampaignProgress({ counts, label }: { counts: OutcomeCounts; label: string }) {
  const messages = OUTCOMES.reduce((sum, outcome) => sum + counts[outcome], 0);
  const settled = settledPercent(counts);
  let x = 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={settled}
      aria-valuetext={`${formatNumber(counts.delivered)} of ${formatNumber(messages)} delivered, ${formatNumber(counts.failed)} failed`}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      {/* SVG widths, not style attributes: the CSP allows no inline styles. */}
      <svg className="block h-full w-full" aria-hidden="true">
        {messages === 0
          ? null
          : OUTCOMES.map((outcome) => {
              const width = (counts[outcome] / messages) * 100;
              const rect = (
                <rect key={outcome} x={`${x}%`} height="100%" width={`${width}%`} className={FILLS[outcome]} />
              );
              x += width;
              return rect;
            })}
      </svg>
    </div>
  );
}

/** The legend of the bar: each outcome's count, in the bar's colours. */
export function OutcomeLegend({ counts }: { counts: OutcomeCounts }) {
  return (
    <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
      {OUTCOMES.map((outcome) => (
        <div key={outcome} className="rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
          <dt className="flex items-center gap-2 text-xs text-slate-600">
            <svg className="h-2.5 w-2.5" aria-hidden="true">
              <rect width="100%" height="100%" className={FILLS[outcome]} />
            </svg>
            {OUTCOME_LABELS[outcome]}
          </dt>
          <dd className="text-lg font-semibold text-slate-900" data-testid={`count-${outcome}`}>
            {formatNumber(counts[outcome])}
          </dd>
        </div>
      ))}
    </dl>
  );
}
