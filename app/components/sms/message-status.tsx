import { MESSAGE_STATUS_LABELS, type MessageStatus } from "#app/modules/messaging/message-status.ts";
import { Badge, type BadgeTone } from "#app/components/ui/badge.tsx";

const TONES: Record<MessageStatus, BadgeTone> = {
  queued: "secondary",
  submitting: "info",
  submitted: "primary",
  delivered: "success",
  undelivered: "danger",
  expired: "danger",
  rejected: "danger",
  failed: "danger",
  unknown: "warning",
};

/** A delivery status badge, with the reason under it when there is one. */
export function MessageStatusBadge({ status, reason }: { status: MessageStatus; reason: string | null }) {
  return (
    <div className="space-y-1">
      <Badge tone={TONES[status]}>{MESSAGE_STATUS_LABELS[status]}</Badge>
      {reason ? <p className="max-w-xs text-xs text-slate-600">{reason}</p> : null}
    </div>
  );
}
