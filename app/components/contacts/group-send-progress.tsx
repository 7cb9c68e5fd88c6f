import { useEffect, useRef } from "react";
import { href, useFetcher, useRevalidator } from "react-router";
import { describeGroupSend, type GroupSendReport, groupSendPercent } from "#app/modules/group-sends/group-send.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { QuietHoursHeld } from "#app/components/quiet-hours/deferred-until.tsx";

const POLL_MS = 500;

/** The resource route that reports one group send as JSON (polled while it runs). */
function groupSendStatusHref(id: number): string {
  return href("/sms/groupSends/:id", { id: String(id) });
}

/**
 * What a group send did. With JavaScript the bar follows the fan-out to the end (polling the
 * status route); without it the panel shows the counts so far and a Refresh link.
 */
export function GroupSendProgress({
  report,
  refreshHref,
  closeHref,
}: {
  report: GroupSendReport;
  refreshHref: string;
  closeHref: string;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<GroupSendReport>();
  const revalidator = useRevalidator();
  const current = fetcher.data?.id === report.id ? fetcher.data : report;
  const percent = groupSendPercent(current);
  const wasFinished = useRef(report.finished);

  useEffect(() => {
    if (current.finished || fetcher.state !== "idle") return;
    const timer = setTimeout(() => void fetcher.load(groupSendStatusHref(report.id)), POLL_MS);
    return () => clearTimeout(timer);
  }, [current.finished, fetcher, report.id]);

  useEffect(() => {
    // Once it ends, refresh the page's data so the balance in the header is the final one.
    if (current.finished && !wasFinished.current) {
      wasFinished.current = true;
      void revalidator.revalidate();
    }
  }, [current.finished, revalidator]);

  const failed = current.status === "failed";
  return (
    <div className="space-y-3" data-testid="group-send-result">
      <div
        role="progressbar"
        aria-label={`Sending to ${current.groupName}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        {/* An SVG width, not a style attribute: the CSP allows no inline styles. */}
        <svg className="block h-full w-full" aria-hidden="true">
          <rect
            height="100%"
            width={`${percent}%`}
            className={failed ? "fill-red-500" : current.finished ? "fill-emerald-500" : "fill-brand-600"}
          />
        </svg>
      </div>
      <p className="text-sm text-slate-600">
        {current.finished
          ? failed
            ? "Stopped."
            : "Done."
          : `${formatNumber(current.queued + current.skipped)} of ${formatNumber(current.total)} contacts handled…`}
      </p>
      <p role="status" className={`text-sm font-medium ${failed ? "text-red-700" : "text-slate-900"}`}>
        {describeGroupSend(current)}
      </p>
      {current.deferred ? <QuietHoursHeld messages={current.deferred.messages} until={current.deferred.until} /> : null}
      <div className="flex flex-wrap gap-2">
        {current.finished || hydrated ? null : (
          <ButtonLink to={refreshHref} variant="secondary" size="sm" preventScrollReset>
            Refresh
          </ButtonLink>
        )}
        <ButtonLink to={href("/sms/campaigns/:id", { id: String(report.id) })} variant="secondary" size="sm">
          Follow delivery
        </ButtonLink>
        <ButtonLink to={href("/sms/messageHistory")} variant="secondary" size="sm">
          Message History
        </ButtonLink>
        <ButtonLink to={closeHref} variant="secondary" size="sm" preventScrollReset>
          Close
        </ButtonLink>
      </div>
    </div>
  );
}
