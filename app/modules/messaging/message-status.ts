// Browser-safe: a message's life as a state machine. Every status change is one of the events
// below, and the store's SQL makes it only from that event's statuses, so anything not listed here
// (a second claim, a late receipt after a final status, a failure after acceptance) is refused.
import { MESSAGE_STATUSES, type MessageStatus } from "#app/db/enums.ts";

export { MESSAGE_STATUSES, type MessageStatus };

/** What a message row starts as: queued, or failed when it was never queued (e.g. unpaid). */
export type InitialStatus = Extract<MessageStatus, "queued" | "failed">;

/** What a delivery receipt can say about a part. */
export type ReceiptStatus = Extract<MessageStatus, "delivered" | "undelivered" | "expired" | "rejected" | "unknown">;

const CARRIER_FAILURES: readonly MessageStatus[] = ["undelivered", "expired", "rejected"];
const CARRIER_FINAL: readonly ReceiptStatus[] = ["delivered", "undelivered", "expired", "rejected"];

type Moves = Partial<Record<MessageStatus, readonly MessageStatus[]>>;

/** Each event: the statuses it moves a message from, and where to. */
export const MESSAGE_EVENTS = {
  /** The worker takes it right before handing it to the SMSC; another worker then finds it taken. */
  claim: { queued: ["submitting"] },
  /** The SMSC accepted every part. */
  accept: { submitting: ["submitted"] },
  /** A temporary error: due again after a backoff (one never claimed stays queued). */
  requeue: { queued: ["queued"], submitting: ["queued"] },
  /** Refused before the carrier, or given up on: the parts the SMSC did not accept are refunded. */
  fail: { queued: ["failed"], submitting: ["failed"] },
  /** Its worker vanished mid-submit: the SMSC may or may not have it, so it is never sent again. */
  interrupt: { submitting: ["unknown"] },
  /** What its parts' receipts say, forward only: a late ENROUTE (unknown) never overwrites delivered. */
  receipt: { submitted: ["unknown", ...CARRIER_FINAL], unknown: CARRIER_FINAL },
} as const satisfies Record<string, Moves>;

export type MessageEvent = keyof typeof MESSAGE_EVENTS;

/** The statuses `event` moves a message from. */
export function fromStatuses(event: MessageEvent): MessageStatus[] {
  return Object.keys(MESSAGE_EVENTS[event]) as MessageStatus[];
}

/** Whether `event` may move a message in status `from` at all. */
export function movesFrom(event: MessageEvent, from: MessageStatus): boolean {
  return from in MESSAGE_EVENTS[event];
}

/** Whether `event` may move a message from `from` to `to`. Parts follow the same receipt moves. */
export function canMove(event: MessageEvent, from: MessageStatus, to: MessageStatus): boolean {
  const moves: Moves = MESSAGE_EVENTS[event];
  return moves[from]?.includes(to) ?? false;
}

/** A status no event moves on from; a message gets its `done_at` when it reaches one. */
export const FINAL_STATUSES: readonly MessageStatus[] = MESSAGE_STATUSES.filter(
  (status) => !Object.keys(MESSAGE_EVENTS).some((event) => movesFrom(event as MessageEvent, status)),
);

export function isFinal(status: MessageStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** Where the dashboards count a message in this status (message_rollup's columns). */
export function rollupOutcome(status: MessageStatus): "pending" | "delivered" | "failed" {
  if (status === "delivered") return "delivered";
  return isFinal(status) ? "failed" : "pending";
}

type PartStatus = { status: MessageStatus; error: string | null };

/** A message's status from its parts' receipts: delivered only when every part is, failed when any part failed. */
export function statusFromParts(parts: PartStatus[], segments: number) {
  const failed = parts.find((p) => CARRIER_FAILURES.includes(p.status));
  if (failed) return { status: failed.status, error: failed.error ? `Carrier error ${failed.error}` : null };
  if (parts.length >= segments && parts.every((p) => p.status === "delivered"))
    return { status: "delivered" as const, error: null };
  if (parts.some((p) => p.status === "unknown")) return { status: "unknown" as const, error: null };
  return { status: "submitted" as const, error: null };
}

/** What the message history's badge says. */
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  queued: "Queued",
  submitting: "Sending",
  submitted: "Sent",
  delivered: "Delivered",
  undelivered: "Undelivered",
  expired: "Expired",
  rejected: "Rejected",
  failed: "Failed",
  unknown: "Unknown",
};
