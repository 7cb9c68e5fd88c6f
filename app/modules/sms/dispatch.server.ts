// The worker's side of a message: hand it to the transport, record what the SMSC says, apply receipts.
import { db, sqlite } from "../../db/client.server.ts";
import type { MessageStatus } from "../../db/schema/sms.ts";
import { statement } from "../../db/statements.server.ts";
import { clock } from "../../utils/clock.server.ts";
import { bookEntry } from "../credits/ledger.server.ts";
import type { PartAck, Receipt, SmsTransport } from "./transports/types.ts";

// Statuses only move forward: a late ENROUTE (unknown) never overwrites delivered.
const RANK: Record<MessageStatus, number> = {
  queued: 0,
  submitting: 1,
  submitted: 2,
  unknown: 3,
  delivered: 4,
  undelivered: 4,
  expired: 4,
  rejected: 4,
  failed: 4,
};
const CARRIER_FAILURES = new Set<MessageStatus>(["rejected", "undelivered", "expired"]);

export function isFinal(status: MessageStatus): boolean {
  return RANK[status] === 4;
}

type SendRow = { id: number; toPhone: string; body: string; segments: number; status: MessageStatus };
type PartRow = { messageId: number; part: number; partStatus: MessageStatus; messageStatus: MessageStatus; segments: number };

const selectForSend = statement<[number], SendRow>(
  "select id, to_phone as toPhone, body, segments, status from sms_messages where id = ?",
);
const selectPartNumbers = statement<[number], { part: number }>("select part from sms_message_parts where message_id = ?");
const claimStatement = statement(
  "update sms_messages set status = 'submitting', attempts = attempts + 1, updated_at = ? where id = ? and status = 'queued'",
);
const deleteOutbox = statement("delete from sms_outbox where message_id = ?");
const insertOutbox = statement("insert into sms_outbox (message_id, created_at) values (?, ?) on conflict do nothing");
const insertPart = statement(
  "insert into sms_message_parts (message_id, part, provider_id, status, updated_at) values (?, ?, ?, 'submitted', ?) on conflict do nothing",
);
const markSubmitted = statement<unknown[], { segments: number }>(
  "update sms_messages set status = 'submitted', error = null, submitted_at = ?, updated_at = ? where id = ? and status = 'submitting' returning segments",
);
const markRequeued = statement(
  "update sms_messages set status = 'queued', error = ?, updated_at = ? where id = ? and status in ('queued', 'submitting')",
);
const markFailed = statement<unknown[], { userId: number; segments: number; credits: number }>(
  `update sms_messages set status = 'failed', error = ?, updated_at = ?, done_at = ?
   where id = ? and status in ('queued', 'submitting')
   returning user_id as userId, segments, credits`,
);
const countParts = statement<[number], { n: number }>("select count(*) as n from sms_message_parts where message_id = ?");
const findPart = statement<[string], PartRow>(
  `select p.message_id as messageId, p.part, p.status as partStatus, m.status as messageStatus, m.segments
   from sms_message_parts p join sms_messages m on m.id = p.message_id
   where p.provider_id = ? order by p.message_id desc limit 1`,
);
const updatePart = statement("update sms_message_parts set status = ?, error = ?, updated_at = ? where message_id = ? and part = ?");
const selectPartStatuses = statement<[number], { status: MessageStatus; error: string | null }>(
  "select status, error from sms_message_parts where message_id = ?",
);
const updateMessageStatus = statement(
  "update sms_messages set status = ?, error = ?, updated_at = ?, done_at = ? where id = ? and status = ?",
);
const insertPending = statement(
  "insert into sms_pending_receipts (provider_id, status, error, received_at) values (?, ?, ?, ?)",
);
const selectPending = statement<[string], { id: number; status: MessageStatus; error: string | null }>(
  "select id, status, error from sms_pending_receipts where provider_id = ? order by id",
);
const deletePending = statement("delete from sms_pending_receipts where id = ?");

/** A message's status from its parts: delivered only when every part is. */
function deriveStatus(parts: { status: MessageStatus; error: string | null }[], segments: number) {
  const failed = parts.find((p) => CARRIER_FAILURES.has(p.status));
  if (failed) return { status: failed.status, error: failed.error ? `Carrier error ${failed.error}` : null };
  if (parts.length >= segments && parts.every((p) => p.status === "delivered")) return { status: "delivered" as const, error: null };
  if (parts.some((p) => p.status === "unknown")) return { status: "unknown" as const, error: null };
  return { status: "submitted" as const, error: null };
}

/** Moves an accepted message forward to what its parts say. */
function settleFromParts(messageId: number, current: MessageStatus, segments: number, now: number) {
  const derived = deriveStatus(selectPartStatuses().all(messageId), segments);
  if (RANK[derived.status] <= RANK[current]) return;
  updateMessageStatus().run(derived.status, derived.error, now, isFinal(derived.status) ? now : null, messageId, current);
}

function applyToPart(row: PartRow, status: MessageStatus, error: string | null, now: number) {
  if (RANK[status] <= RANK[row.partStatus]) return;
  updatePart().run(status, error, now, row.messageId, row.part);
  // Before acceptance is recorded the message is settled by recordAccepted; a final message stays.
  if (row.messageStatus === "submitted" || row.messageStatus === "unknown") {
    settleFromParts(row.messageId, row.messageStatus, row.segments, now);
  }
}

/** Stores the parts the SMSC accepted and applies receipts that came before their submit_sm_resp. */
function storeAcks(messageId: number, acks: PartAck[], now: number) {
  for (const ack of acks) {
    insertPart().run(messageId, ack.part, ack.providerId, now);
    for (const pending of selectPending().all(ack.providerId)) {
      const row = findPart().get(ack.providerId);
      if (row) applyToPart(row, pending.status, pending.error, now);
      deletePending().run(pending.id);
    }
  }
}

const claimTx = sqlite.transaction((messageId: number, now: number) => {
  if (claimStatement().run(now, messageId).changes === 0) return false;
  deleteOutbox().run(messageId);
  return true;
});

/** queued -> submitting, or false when another worker has it (or it is no longer queued). */
export function claimMessage(messageId: number): boolean {
  return claimTx.immediate(messageId, clock.now());
}

const recordAcceptedTx = sqlite.transaction((messageId: number, acks: PartAck[], now: number) => {
  storeAcks(messageId, acks, now);
  const row = markSubmitted().get(now, now, messageId);
  if (row) settleFromParts(messageId, "submitted", row.segments, now);
});

/** submitting -> submitted with the parts' provider ids (and any early receipts applied). */
export function recordAccepted(messageId: number, acks: PartAck[]): void {
  recordAcceptedTx.immediate(messageId, acks, clock.now());
}

const requeueTx = sqlite.transaction((messageId: number, reason: string, acks: PartAck[], now: number) => {
  storeAcks(messageId, acks, now);
  markRequeued().run(`Retrying: ${reason}`, now, messageId);
  insertOutbox().run(messageId, now);
});

/** Back to queued after a temporary error, keeping the parts already accepted. */
export function requeueMessage(messageId: number, reason: string, acks: PartAck[] = []): void {
  requeueTx.immediate(messageId, reason, acks, clock.now());
}

/**
 * Fails a message that has not reached the carrier (queued or submitting) and refunds the credits of
 * the parts the SMSC did not accept, once (ledger key `msg:<id>:refund`). False when it was not
 * failed (it had moved on).
 */
export function failMessage(messageId: number, reason: string, acks: PartAck[] = []): boolean {
  const now = clock.now();
  return db.transaction(
    (tx) => {
      storeAcks(messageId, acks, now);
      const row = markFailed().get(reason, now, now, messageId);
      if (!row) return false;
      deleteOutbox().run(messageId);
      const accepted = acceptedPartCount(messageId);
      const refund = Math.round((row.credits * (row.segments - accepted)) / row.segments);
      if (refund > 0) {
        bookEntry(tx, { userId: row.userId, kind: "refund", amount: refund, key: `msg:${messageId}:refund`, note: reason });
      }
      return true;
    },
    { behavior: "immediate" },
  );
}

/** How many parts of a message the SMSC has accepted (provider ids recorded). */
export function acceptedPartCount(messageId: number): number {
  return countParts().get(messageId)?.n ?? 0;
}

const applyReceiptsTx = sqlite.transaction((receipts: Receipt[], now: number) => {
  for (const receipt of receipts) {
    const row = findPart().get(receipt.providerId);
    // Its submit_sm_resp is not recorded yet (or never will be): keep it for storeAcks.
    if (!row) insertPending().run(receipt.providerId, receipt.status, receipt.error, now);
    else applyToPart(row, receipt.status, receipt.error, now);
  }
});

/** Applies delivery receipts in one transaction; statuses only move forward. */
export function applyReceipts(receipts: Receipt[]): void {
  if (receipts.length > 0) applyReceiptsTx.immediate(receipts, clock.now());
}

export type SendOutcome =
  | { outcome: "submitted" }
  | { outcome: "skipped" }
  | { outcome: "failed"; reason: string }
  | { outcome: "retry"; reason: string };

/**
 * Sends one queued message through the transport and records the answer. Used by the send job;
 * reusable for a batch payload. `finalAttempt`: a temporary error fails the message (and refunds)
 * instead of asking for a retry.
 */
export async function sendQueuedMessage(
  transport: SmsTransport,
  messageId: number,
  { finalAttempt = false }: { finalAttempt?: boolean } = {},
): Promise<SendOutcome> {
  const message = selectForSend().get(messageId);
  if (!message || message.status !== "queued") return { outcome: "skipped" };
  const accepted = new Set(selectPartNumbers().all(messageId).map((r) => r.part));
  const parts = Array.from({ length: message.segments }, (_, i) => i + 1).filter((p) => !accepted.has(p));
  if (parts.length === 0) {
    if (!claimMessage(messageId)) return { outcome: "skipped" };
    recordAccepted(messageId, []);
    return { outcome: "submitted" };
  }

  const result = await transport.submit(
    { id: message.id, to: message.toPhone, body: message.body, parts },
    () => claimMessage(messageId),
  );
  switch (result.kind) {
    case "not-claimed":
      return { outcome: "skipped" };
    case "accepted":
      recordAccepted(messageId, result.acks);
      return { outcome: "submitted" };
    case "permanent":
      failMessage(messageId, result.reason, result.acks);
      return { outcome: "failed", reason: result.reason };
    case "temporary":
      if (finalAttempt) {
        const reason = `Gave up retrying: ${result.reason}`;
        failMessage(messageId, reason, result.acks);
        return { outcome: "failed", reason };
      }
      requeueMessage(messageId, result.reason, result.acks);
      return { outcome: "retry", reason: result.reason };
  }
}
