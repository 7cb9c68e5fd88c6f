// Browser-safe: a campaign's messages grouped into the outcomes its page counts and its bar draws.
import type { MessageStatus } from "#app/db/enums.ts";

export const OUTCOMES = ["delivered", "failed", "sent", "queued"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const OUTCOME_OF: Record<MessageStatus, Outcome> = {
  queued: "queued",
  submitting: "queued",
  submitted: "sent",
  unknown: "sent",
  delivered: "delivered",
  undelivered: "failed",
  expired: "failed",
  rejected: "failed",
  failed: "failed",
};

export const OUTCOME_LABELS: Record<Outcome, string> = {
  delivered: "Delivered",
  failed: "Failed",
  sent: "Sent, awaiting receipt",
  queued: "Queued",
};

export type OutcomeCounts = Record<Outcome, number>;

export function emptyCounts(): OutcomeCounts {
  return { delivered: 0, failed: 0, sent: 0, queued: 0 };
}

/** Messages with a final outcome (delivered or failed), as a share of all its messages (0 to 100). */
export function settledPercent(counts: OutcomeCounts): number {
  const messages = counts.delivered + counts.failed + counts.sent + counts.queued;
  return messages === 0 ? 0 : Math.floor(((counts.delivered + counts.failed) / messages) * 100);
}
