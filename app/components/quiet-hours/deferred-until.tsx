import { useRootData } from "#app/root.tsx";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";

/** "Deferred until 2026-11-27 08:00": a queued message quiet hours hold, in the viewer's zone. */
export function DeferredUntil({ at, timeZone }: { at: number; timeZone: string }) {
  return (
    <p className="text-xs text-slate-600" data-testid="deferred-until">
      Deferred until{" "}
      <time dateTime={new Date(at).toISOString()}>
        {formatDateTime(at, timeZone)} ({timeZone.replaceAll("_", " ")})
      </time>{" "}
      (quiet hours)
    </p>
  );
}

/** A group send's messages that wait for quiet hours to end where their recipients are. */
export function QuietHoursHeld({ messages, until }: { messages: number; until: number }) {
  const timeZone = useRootData()?.user?.timeZone ?? "UTC";
  return (
    <div className="text-sm text-slate-700">
      <p>
        {pluralize(messages, "message")} held by your quiet hours, each until they end in its recipient's local time.
      </p>
      <DeferredUntil at={until} timeZone={timeZone} />
    </div>
  );
}
