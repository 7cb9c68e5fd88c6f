import type { MessageStatus } from "../../db/enums.ts";
import { Badge, type BadgeTone } from "../ui/badge.tsx";

const STATUS: Record<MessageStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: "Queued", tone: "secondary" },
  submitting: { label: "Sending", tone: "info" },
  submitted: { label: "Sent", tone: "primary" },
  delivered: { label: "Delivered", tone: "success" },
  undelivered: { label: "Undelivered", tone: "danger" },
  expired: { label: "Expired", tone: "danger" },
  rejected: { label: "Rejected", tone: "danger" },
  failed: { label: "Failed", tone: "danger" },
  unknown: { label: "Unknown", tone: "warning" },
};

/** A delivery status badge, with the reason under it when there is one. */
export function MessageStatusBadge({ status, reason }: { status: MessageStatus; reason: string | null }) {
  const { label, tone } = STATUS[status];
  return (
    <div className="space-y-1">
      <Badge tone={tone}>{label}</Badge>
      {reason ? <p className="max-w-xs text-xs text-slate-600">{reason}</p> : null}
    </div>
  );
}
