// Browser-safe: the values of the schema's enum columns. The data layer owns them; the domain
// re-exports them beside its rules (shop/orders.ts, shop/packages.ts, scheduling/recurrence.ts,
// messaging/message-status.ts).

export const ORDER_STATUSES = [
  "Pending",
  "Confirmed",
  "Being Cooked",
  "Ready for Pickup",
  "Completed",
  "Cancelled",
  "Refunded",
  "Disputed",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PACKAGE_CATEGORIES = ["appetizer", "beverages", "dessert", "entree"] as const;
export type PackageCategory = (typeof PACKAGE_CATEGORIES)[number];

export const REPEATS = ["none", "daily", "weekly", "monthly"] as const;
export type Repeat = (typeof REPEATS)[number];

/**
 * queued: waiting for the worker (never handed to the SMSC); submitting: handed to the SMSC, its
 * answer not recorded yet; submitted: accepted by the SMSC; then what the delivery receipts say.
 * failed: refused before the carrier (credits refunded). unknown: the carrier's answer is unknown.
 */
export const MESSAGE_STATUSES = [
  "queued",
  "submitting",
  "submitted",
  "delivered",
  "undelivered",
  "expired",
  "rejected",
  "failed",
  "unknown",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** alphanumeric: up to 11 characters (TON 5); long_number: E.164 (TON 1, NPI 1); short_code: digits (TON 3). */
export const SENDER_KINDS = ["alphanumeric", "long_number", "short_code"] as const;
export type SenderKind = (typeof SENDER_KINDS)[number];

/** active: usable (an admin's, or an approved request); pending: a customer's request; rejected: refused. */
export const SENDER_STATUSES = ["active", "pending", "rejected"] as const;
export type SenderStatus = (typeof SENDER_STATUSES)[number];

/** keyword: the phone texted STOP (only its START lifts it); manual / csv: the account added the number. */
export const OPT_OUT_SOURCES = ["keyword", "manual", "csv"] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** The automatic replies an admin words: after an opt-out, after an opt-in, and to HELP / INFO. */
export const KEYWORD_REPLY_KINDS = ["stop", "start", "help"] as const;
export type KeywordReplyKind = (typeof KEYWORD_REPLY_KINDS)[number];

/** smpp: an SMSC over SMPP; simulator: the offline simulator (test mode), which can be told to fail. */
export const UPSTREAM_KINDS = ["smpp", "simulator"] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];
