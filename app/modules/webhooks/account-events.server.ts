// The events other modules note inside their own transactions: an inbound message, an opt-out
// changed, the balance fell below the alert threshold. Nothing is read unless an endpoint wants it.
import { recordEvent } from "#app/modules/webhooks/outbox.server.ts";
import { wantsEvent } from "#app/modules/webhooks/subscriptions.server.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export type ReceivedMessage = {
  id: number;
  from: string;
  to: string;
  body: string;
  encoding: string;
  parts: number;
  receivedAt: number;
};

/**
 * message.received: the inbound message as GET /api/v1/messages?direction=inbound lists it; `now`
 * is when it became the account's (on arrival, or when an admin assigned it).
 */
export async function noteMessageReceived(
  userId: number | null,
  message: ReceivedMessage,
  now = message.receivedAt,
): Promise<void> {
  if (userId === null || !(await wantsEvent(userId, "message.received"))) return;
  const { id, receivedAt, ...rest } = message;
  const data = { id: `in_${id}`, direction: "inbound", ...rest, receivedAt: iso(receivedAt) };
  await recordEvent(userId, "message.received", data, { now });
}

export type OptOutChange = {
  phone: string;
  /** The sender a keyword was sent to; null for the account's own list (every sender). */
  sender: string | null;
  optedOut: boolean;
  source: "keyword" | "manual" | "csv";
  keyword: string | null;
  at: number;
};

/** opt_out.changed, once per phone that changed. */
export async function noteOptOutChanges(userId: number, changes: OptOutChange[]): Promise<void> {
  if (changes.length === 0 || !(await wantsEvent(userId, "opt_out.changed"))) return;
  for (const { at, ...change } of changes)
    await recordEvent(userId, "opt_out.changed", { ...change, updatedAt: iso(at) }, { now: at });
}

export type GroupSendCompletion = {
  id: number;
  groupId: number | null;
  total: number;
  queued: number;
  skipped: number;
  sent: number;
  delivered: number;
  failed: number;
};

/** group_send.completed; the counts are read only when an endpoint wants them. */
export async function noteGroupSendCompleted(
  userId: number,
  counts: () => Promise<GroupSendCompletion>,
  at: number,
): Promise<void> {
  if (!(await wantsEvent(userId, "group_send.completed"))) return;
  await recordEvent(userId, "group_send.completed", { ...(await counts()), completedAt: iso(at) }, { now: at });
}

/** balance.low: the balance fell below the account's alert threshold (once until it is back up). */
export async function noteBalanceLow(userId: number, balance: number, threshold: number, at: number): Promise<void> {
  if (!(await wantsEvent(userId, "balance.low"))) return;
  await recordEvent(userId, "balance.low", { balance, threshold, updatedAt: iso(at) }, { now: at });
}
