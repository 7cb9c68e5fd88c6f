// Browser-safe: what a group send did, as the server reports it and the progress bar shows it.
import type { GroupSendStatus } from "#app/db/schema/contacts.ts";
import { formatNumber, pluralize } from "#app/utils/misc.ts";

export type GroupSendSkip = { name: string; phone: string; reason: string };

export type GroupSendReport = {
  id: number;
  /** Null when the group has been deleted since. */
  groupId: number | null;
  groupName: string;
  /** The message sent to each member. */
  body: string;
  status: GroupSendStatus;
  finished: boolean;
  /** Members when the send started. */
  total: number;
  queued: number;
  credits: number;
  skipped: number;
  /** The first few skipped members, with the reason. */
  skips: GroupSendSkip[];
  stopReason: string | null;
  /** The occurrence of a scheduled group SMS it sent (UTC ms); null for a send from the groups list. */
  occurrenceAt: number | null;
  /** Its messages quiet hours still hold, and when the last of them goes (UTC ms); null for none. */
  deferred: { messages: number; until: number } | null;
};

export const SKIP_REASONS = {
  optedOut: "opted out",
  optOutList: "opted out (replied STOP or on your opt-out list)",
  invalid: "invalid phone number",
} as const;

/** Members handled so far, as a share of the members it started with (0 to 100). */
export function groupSendPercent(report: GroupSendReport): number {
  if (report.finished || report.total === 0) return 100;
  return Math.min(99, Math.floor(((report.queued + report.skipped) / report.total) * 100));
}

/** "Queued 98 messages (196 credits); skipped 2: +15550100 opted out, +15550101 invalid phone number." */
export function describeGroupSend(report: GroupSendReport): string {
  const queued = `${report.finished ? "Queued" : "Queued so far"} ${pluralize(report.queued, "message")} (${pluralize(report.credits, "credit")})`;
  let skipped = "";
  if (report.skipped > 0) {
    const listed = report.skips.map((s) => `${s.phone} ${s.reason}`);
    const more = report.skipped - listed.length;
    skipped = `; skipped ${formatNumber(report.skipped)}: ${listed.join(", ")}${more > 0 ? `, and ${formatNumber(more)} more` : ""}`;
  }
  const text = `${queued}${skipped}.`;
  if (report.status === "failed" && report.queued + report.skipped === 0)
    return `Not sent: ${report.stopReason ?? "unknown error"}.`;
  if (report.status === "failed") return `The group send failed: ${report.stopReason ?? "unknown error"}. ${text}`;
  return report.stopReason ? `${text} ${report.stopReason}` : text;
}
