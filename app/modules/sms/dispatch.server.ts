// The worker's side of a message: hand it to the transport, record what the SMSC says, apply receipts.
import { type Executor, inTransaction, inTransactionWithoutStalling } from "#app/db/client.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { bookEntry } from "#app/modules/credits/ledger.server.ts";
import {
  acceptedPartCount,
  deleteOutbox,
  deleteOutboxRows,
  deletePendingReceipt,
  findPartByProviderId,
  insertAcceptedPart,
  insertPendingReceipt,
  markClaimed,
  markFailed,
  markRequeued,
  markSubmitted,
  type PartRow,
  scheduleOutbox,
  selectAcceptedParts,
  selectPartStatuses,
  pendingReceiptsFor,
  queuedMessageIdsOf,
  selectQueued,
  settleMessage,
  type StoredStatus,
  updatePartStatus,
} from "#app/modules/sms/message-store.server.ts";
import { canMove, isFinal, type MessageStatus, movesFrom, statusFromParts } from "#app/modules/sms/message-status.ts";
import { enqueueSends } from "#app/modules/sms/send.server.ts";
import { countReceipt, smsCounters } from "#app/modules/sms/sms-counters.server.ts";
import { OPTED_OUT_REASON } from "#app/modules/opt-outs/errors.ts";
import { optedOutSince } from "#app/modules/opt-outs/enforcement.server.ts";
import { senderSources } from "#app/modules/senders/senders.server.ts";
import { completeGroupSendIfDone } from "#app/modules/contacts/group-send-completion.server.ts";
import { noteMessageStatus } from "#app/modules/webhooks/message-events.server.ts";
import type {
  ClaimMessages,
  OutgoingSms,
  PartAck,
  Receipt,
  SmsTransport,
  SubmitOutcome,
} from "#app/modules/sms/transports/types.ts";

/** Moves an accepted message forward to what its parts say. */
function settleFromParts(
  messageId: number,
  current: MessageStatus,
  segments: number,
  now: number,
  only?: StoredStatus,
) {
  // A one-part message's status is its part's: no need to read it back.
  const derived = statusFromParts(only && segments === 1 ? [only] : selectPartStatuses(messageId), segments);
  if (!canMove("receipt", current, derived.status)) return;
  const moved = settleMessage(messageId, current, derived, now);
  if (!moved) return;
  noteMessageStatus(moved.userId, messageId, derived.status, now);
  if (moved.groupSendId !== null && isFinal(derived.status)) completeGroupSendIfDone(moved.groupSendId, now);
}

function applyToPart(row: PartRow, status: MessageStatus, error: string | null, now: number) {
  if (!canMove("receipt", row.partStatus, status)) return;
  if (row.partStatus === "submitted") countReceipt(now - row.updatedAt);
  updatePartStatus(row, { status, error }, now);
  // Before acceptance is recorded the message is settled by recordAccepted; a final message stays.
  if (movesFrom("receipt", row.messageStatus))
    settleFromParts(row.messageId, row.messageStatus, row.segments, now, { status, error });
}

type EarlyReceipts = ReturnType<typeof pendingReceiptsFor>;
const earlyReceiptsOf = (acks: PartAck[]): EarlyReceipts => pendingReceiptsFor(acks.map((ack) => ack.providerId));

/**
 * Stores the parts the SMSC accepted and applies receipts that came before their submit_sm_resp
 * (`early`: those kept for these acks, read beforehand). True when such a receipt was applied.
 */
function storeAcks(messageId: number, acks: PartAck[], now: number, early = earlyReceiptsOf(acks)): boolean {
  let applied = false;
  for (const ack of acks) {
    insertAcceptedPart(messageId, ack.part, ack.providerId, now);
    for (const receipt of early?.get(ack.providerId) ?? []) {
      applied = true;
      const row = findPartByProviderId(ack.providerId);
      if (row) applyToPart(row, receipt.status, receipt.error, now);
      deletePendingReceipt(receipt.id);
    }
  }
  return applied;
}

function claim(ids: number[], now: number): Set<number> {
  const claimed = markClaimed(ids, now);
  deleteOutboxRows(claimed);
  return new Set(claimed);
}

/** queued -> submitting for each id, in one transaction; the ids another worker (or nobody) had are left out. */
function claimMessages(ids: number[]): Promise<Set<number>> {
  return inTransactionWithoutStalling(() => claim(ids, clock.now()));
}

/** queued -> submitting, or false when another worker has it (or it is no longer queued). */
export async function claimMessage(messageId: number): Promise<boolean> {
  return (await claimMessages([messageId])).has(messageId);
}

function accept(messageId: number, acks: PartAck[], now: number, early = earlyReceiptsOf(acks)) {
  const applied = storeAcks(messageId, acks, now, early);
  const row = markSubmitted(messageId, now);
  if (row) noteMessageStatus(row.userId, messageId, "submitted", now);
  // Parts can be past "submitted" only through a receipt: one just applied, or one for a part an
  // earlier try had sent.
  if (row && (applied || acks.length < row.segments)) settleFromParts(messageId, "submitted", row.segments, now);
}

/** submitting -> submitted with the parts' provider ids (and any early receipts applied). */
export function recordAccepted(messageId: number, acks: PartAck[]): void {
  inTransaction(() => accept(messageId, acks, clock.now()));
}

function requeue(messageId: number, reason: string, acks: PartAck[], dueAt: number, now: number) {
  storeAcks(messageId, acks, now);
  markRequeued(messageId, `Retrying: ${reason}`, now);
  scheduleOutbox(messageId, dueAt);
}

/** Back to queued after a temporary error, keeping the parts already accepted; due again at `dueAt`. */
export function requeueMessage(messageId: number, reason: string, acks: PartAck[] = [], dueAt = clock.now()): void {
  inTransaction(() => requeue(messageId, reason, acks, dueAt, clock.now()));
}

/**
 * Fails a message that has not reached the carrier (queued or submitting) and refunds the credits of
 * the parts the SMSC did not accept, once (ledger key `msg:<id>:refund`). False when it was not
 * failed (it had moved on).
 */
export function failMessage(messageId: number, reason: string, acks: PartAck[] = []): boolean {
  const now = clock.now();
  return inTransaction((tx) => fail(tx, messageId, reason, acks, now));
}

function fail(tx: Executor, messageId: number, reason: string, acks: PartAck[], now: number): boolean {
  storeAcks(messageId, acks, now);
  const row = markFailed(messageId, reason, now);
  if (!row) return false;
  noteMessageStatus(row.userId, messageId, "failed", now);
  if (row.groupSendId !== null) completeGroupSendIfDone(row.groupSendId, now);
  deleteOutbox(messageId);
  const accepted = acceptedPartCount(messageId);
  const refund = Math.round((row.credits * (row.segments - accepted)) / row.segments);
  if (refund > 0) {
    bookEntry(tx, { userId: row.userId, kind: "refund", amount: refund, key: `msg:${messageId}:refund`, note: reason });
  }
  return true;
}

/** Fails and refunds every message of the account still queued, inside the caller's transaction; how many. */
export function failQueuedMessagesOf(tx: Executor, userId: number, reason: string): number {
  const now = clock.now();
  return queuedMessageIdsOf(userId).filter((id) => fail(tx, id, reason, [], now)).length;
}

function applyReceiptsNow(receipts: Receipt[], now: number): void {
  for (const receipt of receipts) {
    const row = findPartByProviderId(receipt.providerId);
    // Its submit_sm_resp is not recorded yet (or never will be): keep it for storeAcks.
    if (!row) insertPendingReceipt(receipt, now);
    else applyToPart(row, receipt.status, receipt.error, now);
  }
}

/** Applies delivery receipts in one transaction; statuses only move forward. */
export async function applyReceipts(receipts: Receipt[]): Promise<void> {
  if (receipts.length > 0) await inTransactionWithoutStalling(() => applyReceiptsNow(receipts, clock.now()));
}

export type SendOutcome =
  | { kind: "submitted" }
  | { kind: "skipped" }
  | { kind: "failed"; reason: string }
  | { kind: "retry"; reason: string; delayMs: number };

/** Exponential backoff with jitter after a message's `attempts`-th try met a temporary error. */
function retryDelayMs(attempts: number): number {
  return Math.round(getEnv().SMS_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1) * (0.8 + Math.random() * 0.4));
}

/** Tried this many times, a temporary error fails the message (and refunds) instead of another retry. */
const finalAttempt = (attempts: number) => attempts >= getEnv().SMS_RETRY_ATTEMPTS;

// A message never claimed (no SMSC connection, the simulator stopped) is tried again after this, uncounted.
const NOT_CONNECTED_RETRY_MS = 5_000;

/**
 * A message's answer to record. `claimed`: this try moved it to `submitting` (and counted an
 * attempt): the claim returned its id, or the SMSC accepted some of its parts.
 */
type Recorded = { id: number; attempts: number; outcome: SubmitOutcome; claimed: boolean };

function recordOutcomes(tx: Executor, recorded: Recorded[], now: number): Map<number, SendOutcome> {
  const results = new Map<number, SendOutcome>();
  // One look-up for the whole slice's early receipts (a busy worker records answers after some receipts came).
  const early = pendingReceiptsFor(
    recorded.flatMap(({ outcome }) => ("acks" in outcome ? outcome.acks : [])).map((ack) => ack.providerId),
  );
  for (const { id, attempts, outcome, claimed } of recorded) {
    switch (outcome.kind) {
      case "not-claimed":
        results.set(id, { kind: "skipped" });
        break;
      case "accepted":
        accept(id, outcome.acks, now, early);
        results.set(id, { kind: "submitted" });
        break;
      case "permanent":
        fail(tx, id, outcome.reason, outcome.acks, now);
        results.set(id, { kind: "failed", reason: outcome.reason });
        break;
      case "temporary": {
        // Claimed messages count their attempts; one never claimed waits for the connection.
        if (claimed && finalAttempt(attempts + 1)) {
          const reason = `Gave up retrying: ${outcome.reason}`;
          fail(tx, id, reason, outcome.acks, now);
          results.set(id, { kind: "failed", reason });
          break;
        }
        const delayMs = claimed ? retryDelayMs(attempts + 1) : NOT_CONNECTED_RETRY_MS;
        requeue(id, outcome.reason, outcome.acks, now + delayMs, now);
        results.set(id, { kind: "retry", reason: outcome.reason, delayMs });
        break;
      }
    }
  }
  return results;
}

/**
 * Messages handed to the transport together and then recorded in one transaction. A job's batch
 * goes in slices of this size, concurrently, so the SMSC's answers are written moments after they
 * come: a worker killed meanwhile leaves no more than the SMPP window and a slice `submitting` with
 * its answers unknown.
 */
export const RECORD_SLICE = 25;

/** Why a message of a disabled account did not go out (it is refunded). */
export const ACCOUNT_DISABLED_REASON = "Cancelled: the account was disabled";

/**
 * Sends a batch of queued messages through the transport and records the answers, a slice at a
 * time. Messages no longer queued are skipped; a temporary error puts a message back in the queue,
 * due again after its backoff (sendAndRequeue adds its job).
 */
export async function sendQueuedMessages(
  transport: SmsTransport,
  messageIds: number[],
): Promise<Map<number, SendOutcome>> {
  const rows = selectQueued(messageIds);
  const results = new Map<number, SendOutcome>(messageIds.map((id) => [id, { kind: "skipped" }]));
  if (rows.length === 0) return results;
  const accepted = new Map<number, Set<number>>();
  for (const { messageId, part } of selectAcceptedParts(messageIds)) {
    let parts = accepted.get(messageId);
    if (!parts) accepted.set(messageId, (parts = new Set()));
    parts.add(part);
  }
  const attempts = new Map(rows.map((row) => [row.id, row.attempts]));
  const outgoing: OutgoingSms[] = [];
  const settled: Recorded[] = [];
  // A STOP that arrived while the message waited wins; the automatic replies to it still go.
  const optedOut = optedOutSince(rows.filter((row) => row.source !== "keyword"));
  const fromAddresses = [...new Set(rows.flatMap((row) => (row.fromAddress ? [row.fromAddress] : [])))];
  const sources = senderSources(fromAddresses);
  for (const row of rows) {
    if (optedOut.has(row.id) || row.ownerDisabled) {
      const reason = row.ownerDisabled ? ACCOUNT_DISABLED_REASON : OPTED_OUT_REASON;
      const outcome: SubmitOutcome = { kind: "permanent", reason, acks: [] };
      settled.push({ id: row.id, attempts: row.attempts, outcome, claimed: false });
      continue;
    }
    const parts = Array.from({ length: row.segments }, (_, i) => i + 1).filter((p) => !accepted.get(row.id)?.has(p));
    // Every part was accepted before (an earlier try's answers were kept): nothing left to send.
    if (parts.length === 0)
      settled.push({ id: row.id, attempts: row.attempts, outcome: { kind: "accepted", acks: [] }, claimed: false });
    else {
      const from = row.fromAddress ? sources.get(row.fromAddress) : undefined;
      outgoing.push({ id: row.id, to: row.toPhone, body: row.body, parts, ...(from && { from }) });
    }
  }
  const record = async (recorded: Recorded[]) => {
    const outcomes = await inTransactionWithoutStalling((tx) => recordOutcomes(tx, recorded, clock.now()));
    for (const [id, outcome] of outcomes) results.set(id, outcome);
  };
  const recordSettled = async () => {
    if (settled.length === 0) return;
    const nothingLeft = await claimMessages(settled.map((r) => r.id));
    await record(
      settled.map((r) =>
        nothingLeft.has(r.id) ? { ...r, claimed: true } : { ...r, outcome: { kind: "not-claimed" } as const },
      ),
    );
  };
  const sendSlice = async (slice: OutgoingSms[]) => {
    // What the transport's claims returned: a message not among them never left and counted no attempt.
    const claimedIds = new Set<number>();
    const claim: ClaimMessages = async (ids) => {
      const claimed = await claimMessages(ids);
      for (const id of claimed) claimedIds.add(id);
      return claimed;
    };
    const outcomes = await transport.submitMany(slice, claim);
    await record(
      slice.map((sms) => {
        const outcome = outcomes.get(sms.id)!;
        const claimed = claimedIds.has(sms.id) || ("acks" in outcome && outcome.acks.length > 0);
        return { id: sms.id, attempts: attempts.get(sms.id) ?? 0, outcome, claimed };
      }),
    );
  };
  const slices: Promise<void>[] = [recordSettled()];
  for (let i = 0; i < outgoing.length; i += RECORD_SLICE) slices.push(sendSlice(outgoing.slice(i, i + RECORD_SLICE)));
  await Promise.all(slices);
  return results;
}

/** One message: see sendQueuedMessages. */
export async function sendQueuedMessage(transport: SmsTransport, messageId: number): Promise<SendOutcome> {
  return (await sendQueuedMessages(transport, [messageId])).get(messageId)!;
}

/**
 * A send job's work: sends the batch, then adds the messages that met a temporary error as new
 * jobs due after their backoff (their outbox rows, due then too, cover a failure to add them).
 */
export async function sendAndRequeue(transport: SmsTransport, messageIds: number[]) {
  const results = await sendQueuedMessages(transport, messageIds);
  const summary = { submitted: 0, failed: 0, retried: 0, skipped: 0 };
  const retries = new Map<number, number[]>();
  for (const [id, result] of results) {
    if (result.kind === "submitted") summary.submitted += 1;
    else if (result.kind === "failed") summary.failed += 1;
    else if (result.kind === "skipped") summary.skipped += 1;
    else {
      summary.retried += 1;
      // Grouped by the second, so a batch that met one error comes back as a few jobs.
      const delay = Math.ceil(result.delayMs / 1000) * 1000;
      retries.set(delay, [...(retries.get(delay) ?? []), id]);
    }
  }
  const counters = smsCounters();
  counters.submitted += summary.submitted;
  counters.failed += summary.failed;
  counters.retried += summary.retried;
  for (const [delay, ids] of retries) await enqueueSends(ids, delay);
  return summary;
}
