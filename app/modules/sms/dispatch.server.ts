// The worker's side of a message: hand it to the transport, record what the SMSC says, apply receipts.
import {
  type Executor,
  MESSAGE_STATE_TURN,
  runningTransaction,
  usesPostgres,
  withTx,
  withTxWithoutStalling,
} from "#app/db/client.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { OneBatchAtATime } from "#app/utils/coalescer.server.ts";
import { CountingGate } from "#app/utils/counting-gate.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { bookEntry } from "#app/modules/credits/ledger.server.ts";
import {
  type AcceptedPart,
  acceptedPartCount,
  deleteOutbox,
  deletePendingReceipts,
  insertPendingReceipts,
  lockMessageStates,
  claimQueued,
  markFailed,
  markInterrupted,
  markRequeued,
  markSubmitted,
  type MessageMove,
  moveMessages,
  type PartMove,
  type PartReceipt,
  type PartRow,
  pendingReceiptsFor,
  queuedMessageIdsOf,
  scheduleOutbox,
  selectAcceptedParts,
  selectPartsByProviderIds,
  selectQueued,
  storeAcceptedParts,
  type StoredStatus,
  type SubmitAttempt,
  updateParts,
} from "#app/modules/sms/message-store.server.ts";
import { canMove, isFinal, movesFrom, statusFromParts } from "#app/modules/messaging/message-status.ts";
import { addSmsSendJobs } from "#app/queue/jobs/sms-send.server.ts";
import { countReceipt, smsCounters } from "#app/modules/health/sms-counters.server.ts";
import { OPTED_OUT_REASON } from "#app/modules/opt-outs/errors.ts";
import { optedOutSince } from "#app/modules/opt-outs/enforcement.server.ts";
import { senderSources } from "#app/modules/senders/senders.server.ts";
import { completeGroupSendsIfDone } from "#app/modules/sms/group-send-completion.server.ts";
import { type MessageMove as StatusMove, noteMessageStatuses } from "#app/modules/sms/message-events.server.ts";
import { DEFAULT_UPSTREAMS, type UpstreamsFor } from "#app/modules/sms/transports/upstream-config.ts";
import type {
  ClaimMessages,
  OutgoingSms,
  PartAck,
  Receipt,
  SmsTransport,
  SubmitAttempt as TransportAttempt,
  SubmitOutcome,
} from "#app/modules/messaging/transport-types.ts";

/** A batch's status moves, noted together: their message events, and the group sends a final status may complete. */
type Moves = { events: StatusMove[]; groupSendIds: Set<number> };

function noteMove(moves: Moves, move: StatusMove & { groupSendId: number | null }) {
  moves.events.push({ userId: move.userId, messageId: move.messageId, status: move.status });
  if (move.groupSendId !== null && isFinal(move.status)) moves.groupSendIds.add(move.groupSendId);
}

/** Records the events of the moves so far (an event shows its message as it is when recorded). */
async function noteEvents(moves: Moves, now: number) {
  if (moves.events.length > 0) await noteMessageStatuses(moves.events.splice(0), now);
}

/** Runs a batch's writes, then records their events and completes the group sends they finished (same transaction). */
async function inBatch<T>(now: number, write: (moves: Moves) => Promise<T>): Promise<T> {
  const moves: Moves = { events: [], groupSendIds: new Set() };
  const result = await write(moves);
  await noteEvents(moves, now);
  if (moves.groupSendIds.size > 0) await completeGroupSendsIfDone([...moves.groupSendIds], now);
  return result;
}

/** Moves the messages (each from the status it was read in) and notes those moved. */
async function moveAndNote(messageMoves: MessageMove[], now: number, moves: Moves) {
  if (messageMoves.length === 0) return;
  for (const row of await moveMessages(messageMoves, now)) noteMove(moves, { ...row, messageId: row.id });
}

/** Parts by message, then by part number (in part order). */
function partsByMessage(parts: ({ messageId: number; part: number } & StoredStatus)[]) {
  const byMessage = new Map<number, Map<number, StoredStatus>>();
  for (const { messageId, part, status, error } of parts) {
    let ofMessage = byMessage.get(messageId);
    if (!ofMessage) byMessage.set(messageId, (ofMessage = new Map()));
    ofMessage.set(part, { status, error });
  }
  return byMessage;
}

/**
 * Applies receipts, in order, to the parts their provider ids name, and moves each part's message
 * to what its parts then say, as one by one would (a part only moves forward: a second DELIVRD for
 * it changes nothing). One read of the parts, one of multi-part messages' other parts, one write of the
 * parts and one of the messages, whatever the batch's size. Returns the receipts whose part is not
 * recorded.
 */
async function applyToParts(receipts: PartReceipt[], now: number, moves: Moves): Promise<PartReceipt[]> {
  const found = new Map<string, PartRow>();
  // Newest message first: the first row of a provider id is its part.
  for (const row of await selectPartsByProviderIds(receipts.map((r) => r.providerId)))
    if (!found.has(row.providerId)) found.set(row.providerId, row);
  // A message can move by receipts only from submitted or unknown (movesFrom), so only those need their other parts.
  const multiPart = [...found.values()].filter((row) => row.segments > 1 && movesFrom("receipt", row.messageStatus));
  const partsOf = partsByMessage(
    multiPart.length > 0 ? await selectAcceptedParts(multiPart.map((row) => row.messageId)) : [],
  );
  const parts = new Map<string, PartMove>();
  const messages = new Map<number, MessageMove>();
  const unknown: PartReceipt[] = [];
  for (const receipt of receipts) {
    const row = found.get(receipt.providerId);
    if (!row) {
      unknown.push(receipt);
      continue;
    }
    const key = `${row.messageId}:${row.part}`;
    const part = parts.get(key) ?? {
      messageId: row.messageId,
      part: row.part,
      from: row.partStatus,
      status: row.partStatus,
      error: null,
    };
    if (!canMove("receipt", part.status, receipt.status)) continue;
    if (part.status === "submitted") countReceipt(now - row.updatedAt);
    parts.set(key, { ...part, status: receipt.status, error: receipt.error });
    const message = messages.get(row.messageId) ?? {
      id: row.messageId,
      from: row.messageStatus,
      status: row.messageStatus,
      error: null,
    };
    // Before acceptance is recorded the message is settled by recordAccepted; a final message stays.
    if (!movesFrom("receipt", message.status)) continue;
    const moved = { status: receipt.status, error: receipt.error };
    const siblings = partsOf.get(row.messageId)?.set(row.part, moved);
    const derived = statusFromParts(siblings ? [...siblings.values()] : [moved], row.segments);
    if (canMove("receipt", message.status, derived.status)) messages.set(row.messageId, { ...message, ...derived });
  }
  if (parts.size > 0) await updateParts([...parts.values()], now);
  await moveAndNote([...messages.values()], now, moves);
  return unknown;
}

/** Moves submitted messages to what their parts' receipts say: one read of their parts, one write. */
async function settleFromParts(messages: { id: number; segments: number }[], now: number, moves: Moves) {
  if (messages.length === 0) return;
  const partsOf = partsByMessage(await selectAcceptedParts(messages.map((message) => message.id)));
  const settled = messages.flatMap(({ id, segments }): MessageMove[] => {
    const derived = statusFromParts([...(partsOf.get(id)?.values() ?? [])], segments);
    return canMove("receipt", "submitted", derived.status) ? [{ id, from: "submitted", ...derived }] : [];
  });
  await moveAndNote(settled, now, moves);
}

const acceptedParts = (messageId: number, acks: PartAck[]): AcceptedPart[] =>
  acks.map((ack) => ({ messageId, ...ack }));

/**
 * Stores the parts the SMSC accepted and the tries that reached it (storeAcceptedParts), and applies
 * the receipts kept for those parts that came before their submit_sm_resp. Returns the messages that
 * had such receipts.
 */
async function storeAcks(parts: AcceptedPart[], now: number, moves: Moves, tries: SubmitAttempt[] = []) {
  if (!(await storeAcceptedParts(parts, tries, now))) return new Set<number>();
  const early = await pendingReceiptsFor(parts.map((part) => part.providerId));
  const withEarly = parts.filter((part) => early.has(part.providerId));
  if (withEarly.length === 0) return new Set<number>();
  const kept = [...new Set(withEarly.map((part) => part.providerId))].flatMap((id) => early.get(id)!);
  // One whose part is not recorded (an earlier try's part kept another provider id) is dropped.
  await applyToParts(kept, now, moves);
  await deletePendingReceipts(kept.map((receipt) => receipt.id));
  return new Set(withEarly.map((part) => part.messageId));
}

/**
 * queued -> submitting for each id, at once; the ids another worker (or nobody) had are left out. On
 * SQLite in the transaction of this process's other state changes (one commit and one turn of the
 * write lock for both); on PostgreSQL a statement of its own, outside the message-state turn (decision 131).
 */
async function claimMessages(ids: number[]): Promise<Set<number>> {
  if (usesPostgres()) return new Set(await claimQueued(ids, clock.now()));
  const { claimed, claimError } = await writeStateChange({ claims: ids });
  if (claimError !== undefined) throw claimError;
  return claimed;
}

/** queued -> submitting, or false when another worker has it (or it is no longer queued). */
export async function claimMessage(messageId: number): Promise<boolean> {
  return (await claimMessages([messageId])).has(messageId);
}

/**
 * submitting -> submitted for messages whose every part the SMSC accepted (their parts stored;
 * `early`: those that had receipts waiting), in one UPDATE; then those with a part past submitted
 * move on.
 */
async function accept(messages: { id: number; acks: PartAck[] }[], early: Set<number>, now: number, moves: Moves) {
  if (messages.length === 0) return;
  const submitted = await markSubmitted(
    messages.map((message) => message.id),
    now,
  );
  for (const row of submitted) noteMove(moves, { ...row, messageId: row.id, status: "submitted", groupSendId: null });
  // Their message.sent shows them submitted, before a receipt below moves them on.
  await noteEvents(moves, now);
  const sentParts = new Map(messages.map((message) => [message.id, message.acks.length]));
  // Parts can be past "submitted" only through a receipt: one just applied, or one for a part an
  // earlier try had sent.
  await settleFromParts(
    submitted.filter((row) => early.has(row.id) || sentParts.get(row.id)! < row.segments),
    now,
    moves,
  );
}

/** submitting -> submitted with the parts' provider ids (and any early receipts applied). */
export async function recordAccepted(messageId: number, acks: PartAck[]): Promise<void> {
  const now = clock.now();
  await withTx(
    () =>
      inBatch(
        now,
        async (moves) =>
          await accept(
            [{ id: messageId, acks }],
            await storeAcks(acceptedParts(messageId, acks), now, moves),
            now,
            moves,
          ),
      ),
    { turn: MESSAGE_STATE_TURN },
  );
}

async function requeue(messageId: number, reason: string, dueAt: number, now: number) {
  await markRequeued(messageId, `Retrying: ${reason}`, now);
  await scheduleOutbox(messageId, dueAt);
}

/** Back to queued after a temporary error, keeping the parts already accepted; due again at `dueAt`. */
export async function requeueMessage(
  messageId: number,
  reason: string,
  acks: PartAck[] = [],
  dueAt = clock.now(),
): Promise<void> {
  const now = clock.now();
  await withTx(
    () =>
      inBatch(now, async (moves) => {
        await storeAcks(acceptedParts(messageId, acks), now, moves);
        await requeue(messageId, reason, dueAt, now);
      }),
    { turn: MESSAGE_STATE_TURN },
  );
}

/**
 * Fails a message that has not reached the carrier (queued or submitting) and refunds the credits of
 * the parts the SMSC did not accept, once (ledger key `msg:<id>:refund`). False when it was not
 * failed (it had moved on).
 */
export async function failMessage(messageId: number, reason: string, acks: PartAck[] = []): Promise<boolean> {
  const now = clock.now();
  return await withTx(
    (tx) =>
      inBatch(now, async (moves) => {
        await storeAcks(acceptedParts(messageId, acks), now, moves);
        return await fail(tx, messageId, reason, now, moves);
      }),
    { turn: MESSAGE_STATE_TURN },
  );
}

/** Fails one message (its accepted parts stored) and refunds the rest; its event and group send noted in `moves`. */
async function fail(tx: Executor, messageId: number, reason: string, now: number, moves: Moves): Promise<boolean> {
  const row = await markFailed(messageId, reason, now);
  if (!row) return false;
  noteMove(moves, { ...row, messageId, status: "failed" });
  await deleteOutbox(messageId);
  const accepted = await acceptedPartCount(messageId);
  const refund = Math.round((row.credits * (row.segments - accepted)) / row.segments);
  if (refund > 0) {
    await bookEntry(tx, {
      userId: row.userId,
      kind: "refund",
      amount: refund,
      key: `msg:${messageId}:refund`,
      note: reason,
    });
  }
  return true;
}

/** Fails and refunds every message of the account still queued, inside the caller's transaction; how many. */
export async function failQueuedMessagesOf(tx: Executor, userId: number, reason: string): Promise<number> {
  const now = clock.now();
  return await inBatch(now, async (moves) => {
    let failed = 0;
    for (const id of await queuedMessageIdsOf(userId)) if (await fail(tx, id, reason, now, moves)) failed += 1;
    return failed;
  });
}

async function applyReceiptsNow(receipts: Receipt[], now: number): Promise<void> {
  await inBatch(now, async (moves) => {
    const unknown = await applyToParts(receipts, now, moves);
    // Their submit_sm_resp is not recorded yet (or never will be): kept for storeAcks.
    if (unknown.length > 0) await insertPendingReceipts(unknown, now);
  });
}

/** Applies delivery receipts, with the other state changes waiting in this process (decision 142): one statement per step for the batch; statuses only move forward. */
export async function applyReceipts(receipts: Receipt[]): Promise<void> {
  if (receipts.length > 0) await writeStateChange({ receipts });
}

export type SendOutcome =
  | { kind: "submitted" }
  | { kind: "skipped" }
  | { kind: "failed"; reason: string }
  | { kind: "unknown"; reason: string }
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
 * attempt): the claim returned its id, or the SMSC accepted some of its parts. `tried`: the
 * transport had it (not settled without the SMSC).
 */
type Recorded = { id: number; attempts: number; outcome: SubmitOutcome; claimed: boolean; tried: boolean };

// The upstream named when a transport reports no attempts of its own (decision 140).
const UNREPORTED_UPSTREAM = "default";

/** A try's submit_sm per part as the transport reports them, split where the upstream changes. */
function triesByUpstream(attempts: TransportAttempt[]): TransportAttempt[][] {
  const tries: TransportAttempt[][] = [];
  for (const attempt of attempts) {
    const current = tries.at(-1);
    if (current?.[0].upstream === attempt.upstream) current.push(attempt);
    else tries.push([attempt]);
  }
  return tries;
}

/**
 * What a claimed message's try did at each upstream it reached, for its journey: one row per
 * upstream (every one before the last passed it on); none when it never left.
 */
function attemptOf({ id, outcome, claimed, tried }: Recorded): SubmitAttempt[] {
  if (!tried || !claimed || outcome.kind === "not-claimed") return [];
  const error = outcome.kind === "accepted" ? null : outcome.reason;
  if (outcome.attempts === undefined) {
    const commandStatus = outcome.kind === "accepted" ? 0 : null;
    const providerIds = outcome.acks.map((ack) => ack.providerId);
    return [
      {
        messageId: id,
        upstream: UNREPORTED_UPSTREAM,
        bind: null,
        outcome: outcome.kind,
        commandStatus,
        providerIds,
        error,
      },
    ];
  }
  const tries = triesByUpstream(outcome.attempts);
  return tries.map((parts, index) => {
    const last = index === tries.length - 1;
    const refusal = parts.find((part) => part.commandStatus !== null && part.commandStatus !== 0);
    return {
      messageId: id,
      upstream: parts[0].upstream,
      bind: [...new Set(parts.map((part) => part.bind))].join(", "),
      outcome: last ? outcome.kind : "passed_on",
      commandStatus: refusal?.commandStatus ?? (parts.every((part) => part.commandStatus === 0) ? 0 : null),
      providerIds: parts.flatMap((part) => (part.smscMessageId === null ? [] : [part.smscMessageId])),
      error: last ? error : null,
    };
  });
}

async function recordOutcomes(tx: Executor, recorded: Recorded[], now: number): Promise<Map<number, SendOutcome>> {
  return await inBatch(now, async (moves) => {
    const results = new Map<number, SendOutcome>();
    // Every answer's accepted parts at once: a refusal or a retry keeps those the SMSC took too.
    const parts = recorded.flatMap(({ id, outcome }) => ("acks" in outcome ? acceptedParts(id, outcome.acks) : []));
    const early = await storeAcks(parts, now, moves, recorded.flatMap(attemptOf));
    const accepted = recorded.flatMap(({ id, outcome }) =>
      outcome.kind === "accepted" ? [{ id, acks: outcome.acks }] : [],
    );
    await accept(accepted, early, now, moves);
    // Refusals and retries are rare: one message at a time.
    for (const { id, attempts, outcome, claimed } of recorded) {
      switch (outcome.kind) {
        case "accepted":
          results.set(id, { kind: "submitted" });
          break;
        case "permanent":
          await fail(tx, id, outcome.reason, now, moves);
          results.set(id, { kind: "failed", reason: outcome.reason });
          break;
        case "unknown":
          // Written to an upstream that never answered: kept, never retried (decision 138).
          await markInterrupted(id, outcome.reason, now);
          results.set(id, { kind: "unknown", reason: outcome.reason });
          break;
        case "temporary": {
          // Claimed messages count their attempts; one never claimed waits for the connection.
          if (claimed && finalAttempt(attempts + 1)) {
            const reason = `Gave up retrying: ${outcome.reason}`;
            await fail(tx, id, reason, now, moves);
            results.set(id, { kind: "failed", reason });
            break;
          }
          const delayMs = claimed ? retryDelayMs(attempts + 1) : NOT_CONNECTED_RETRY_MS;
          await requeue(id, outcome.reason, now + delayMs, now);
          results.set(id, { kind: "retry", reason: outcome.reason, delayMs });
          break;
        }
      }
    }
    return results;
  });
}

/** A slice's answers from the SMSC, a batch of delivery receipts, or messages to claim: what moves messages' statuses. */
type StateChange = { answers: Recorded[] } | { receipts: Receipt[] } | { claims: number[] };
/** A slice's outcomes, or the messages a claim got or why it failed (a receipt batch gets neither). */
type StateChangeResult = { outcomes: Map<number, SendOutcome>; claimed: Set<number>; claimError?: unknown };

/**
 * Claims each change's ids at once; a message asked for by two changes goes to the first only. Beside
 * answers or receipts the claim is a savepoint: its failure (a database going away) fails the claims
 * alone, so what the SMSC answered is still recorded.
 */
async function claimAll(claims: number[][], now: number, besideOthers: boolean) {
  const wanted = [...new Set(claims.flat())];
  if (wanted.length === 0) return { claimed: [] };
  const claim = () => claimQueued(wanted, now);
  let got: Set<number>;
  try {
    got = new Set(besideOthers ? await withTx(claim) : await claim());
  } catch (error) {
    if (!besideOthers) throw error;
    return { claimed: [], claimError: error };
  }
  const claimed = claims.map((ids) => {
    const mine = new Set(ids.filter((id) => got.has(id)));
    for (const id of mine) got.delete(id);
    return mine;
  });
  return { claimed };
}

/**
 * Writes state changes in one transaction, in the message-state turn taken shared, with the locks of
 * the messages and parts it touches (decision 143): the answers of every slice
 * (one set-based recordOutcomes), then the receipts, which so find the parts recorded beside them,
 * then the claims (SQLite's only, claimAll). Each slice gets its outcomes and each claim its messages
 * (a receipt batch, neither). The SMSC's answers exist only here: given
 * up, their messages would end `unknown` though sent, hence no patience limit, and a COMMIT cut off
 * by a PostgreSQL restart is looked up rather than given up. A message another
 * slice claimed is answered `skipped` without being written, so among the slices written together
 * each message id is in one slice only.
 */
async function writeStateChanges(changes: StateChange[]): Promise<StateChangeResult[]> {
  const slices = changes.flatMap((change) => ("answers" in change ? [change.answers] : []));
  const receipts = changes.flatMap((change) => ("receipts" in change ? change.receipts : []));
  const claims = changes.flatMap((change) => ("claims" in change ? [change.claims] : []));
  const written = slices.flat().filter((recorded) => recorded.outcome.kind !== "not-claimed");
  const onlyClaims = written.length === 0 && receipts.length === 0;
  const { outcomes, claimed, claimError } =
    onlyClaims && claims.length === 0
      ? { outcomes: new Map<number, SendOutcome>(), claimed: [], claimError: undefined }
      : await withTxWithoutStalling(
          async (tx) => {
            const now = clock.now();
            const acks = written.flatMap(({ outcome }) => ("acks" in outcome ? outcome.acks : []));
            await lockMessageStates(
              written.map((recorded) => recorded.id),
              [...acks, ...receipts].map((change) => change.providerId),
            );
            const recorded =
              written.length > 0 ? await recordOutcomes(tx, written, now) : new Map<number, SendOutcome>();
            if (receipts.length > 0) await applyReceiptsNow(receipts, now);
            return { outcomes: recorded, ...(await claimAll(claims, now, !onlyClaims)) };
          },
          // Claims alone give up as a claim of its own did; answers and receipts never do.
          onlyClaims
            ? {}
            : { patienceMs: Infinity, turn: MESSAGE_STATE_TURN, sharedTurn: true, lookUpCutOffCommit: true },
        );
  let claim = 0;
  return changes.map((change) => ({
    outcomes: new Map(
      "answers" in change
        ? change.answers.map(({ id, outcome }): [number, SendOutcome] => [
            id,
            outcome.kind === "not-claimed" ? { kind: "skipped" } : outcomes.get(id)!,
          ])
        : [],
    ),
    claimed: "claims" in change ? (claimed[claim++] ?? new Set<number>()) : new Set<number>(),
    claimError: "claims" in change ? claimError : undefined,
  }));
}

/**
 * This process's state changes waiting to be written: one transaction at a time, each with every
 * change that came while the one before it ran, so the fleet-wide message-state turn is taken once
 * per batch instead of once per slice or receipt batch (decision 142).
 */
const stateChanges = new OneBatchAtATime(writeStateChanges);

/** Through the process's queue; inside a caller's transaction (a test holding one open), in that transaction. */
async function writeStateChange(change: StateChange): Promise<StateChangeResult> {
  if (runningTransaction() === null) return await stateChanges.add(change);
  return (await writeStateChanges([change]))[0];
}

/**
 * Messages handed to the transport together and then recorded in one transaction. A job's batch
 * goes in slices of this size, concurrently, so the SMSC's answers are written moments after they
 * come: a worker killed meanwhile leaves no more than the SMPP window and a slice `submitting` with
 * its answers unknown.
 */
export const RECORD_SLICE = 25;

/**
 * Messages of this process's slices between their hand-over to the transport and their answers
 * written, at most: what a worker killed can leave `unknown`. The transport's capacity (see
 * SmsTransport) and two slices, so the wire stays full while a slice's answers are written; without
 * it, slices kept sending while earlier answers waited for their transaction (a fault run's kill
 * left 730 unknown after a thousand messages came back at once).
 */
export const unrecordedLimit = (capacity: number) => capacity + 2 * RECORD_SLICE;

const unrecorded = new CountingGate();

/** Messages this process has handed to a transport and not yet recorded (see unrecordedLimit). */
export const unrecordedMessages = () => unrecorded.taken;

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
  upstreamsFor: UpstreamsFor = () => DEFAULT_UPSTREAMS,
): Promise<Map<number, SendOutcome>> {
  const rows = await selectQueued(messageIds);
  const results = new Map<number, SendOutcome>(messageIds.map((id) => [id, { kind: "skipped" }]));
  if (rows.length === 0) return results;
  const accepted = new Map<number, Set<number>>();
  for (const { messageId, part } of await selectAcceptedParts(messageIds)) {
    let parts = accepted.get(messageId);
    if (!parts) accepted.set(messageId, (parts = new Set()));
    parts.add(part);
  }
  const attempts = new Map(rows.map((row) => [row.id, row.attempts]));
  const outgoing: OutgoingSms[] = [];
  const settled: Recorded[] = [];
  // A STOP that arrived while the message waited wins; the automatic replies to it still go.
  const optedOut = await optedOutSince(rows.filter((row) => row.source !== "keyword"));
  const fromAddresses = [...new Set(rows.flatMap((row) => (row.fromAddress ? [row.fromAddress] : [])))];
  const sources = await senderSources(fromAddresses);
  for (const row of rows) {
    if (optedOut.has(row.id) || row.ownerDisabled) {
      const reason = row.ownerDisabled ? ACCOUNT_DISABLED_REASON : OPTED_OUT_REASON;
      const outcome: SubmitOutcome = { kind: "permanent", reason, acks: [] };
      settled.push({ id: row.id, attempts: row.attempts, outcome, claimed: false, tried: false });
      continue;
    }
    const parts = Array.from({ length: row.segments }, (_, i) => i + 1).filter((p) => !accepted.get(row.id)?.has(p));
    // Every part was accepted before (an earlier try's answers were kept): nothing left to send.
    if (parts.length === 0)
      settled.push({
        id: row.id,
        attempts: row.attempts,
        outcome: { kind: "accepted", acks: [] },
        claimed: false,
        tried: false,
      });
    else {
      const from = row.fromAddress ? sources.get(row.fromAddress) : undefined;
      const upstreams = upstreamsFor(row.toPhone);
      outgoing.push({ id: row.id, to: row.toPhone, body: row.body, parts, upstreams, ...(from && { from }) });
    }
  }
  const record = async (recorded: Recorded[]) => {
    for (const [id, outcome] of (await writeStateChange({ answers: recorded })).outcomes) results.set(id, outcome);
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
    let claimError: unknown;
    const claim: ClaimMessages = async (ids) => {
      let claimed: Set<number>;
      try {
        claimed = await claimMessages(ids);
      } catch (error) {
        // Not sent (a database restart): the slice's other groups still leave and their answers are
        // recorded, then the error fails the job, whose retry sends what is still queued.
        claimError ??= error;
        return new Set<number>();
      }
      for (const id of claimed) claimedIds.add(id);
      return claimed;
    };
    const { capacity } = transport;
    if (capacity !== undefined) await unrecorded.take(slice.length, unrecordedLimit(capacity));
    try {
      const outcomes = await transport.submitMany(slice, claim);
      await record(
        slice.map((sms) => {
          const outcome = outcomes.get(sms.id)!;
          const claimed = claimedIds.has(sms.id) || ("acks" in outcome && outcome.acks.length > 0);
          return { id: sms.id, attempts: attempts.get(sms.id) ?? 0, outcome, claimed, tried: true };
        }),
      );
    } finally {
      if (capacity !== undefined) unrecorded.give(slice.length);
    }
    if (claimError !== undefined) throw claimError;
  };
  const slices: Promise<void>[] = [recordSettled()];
  for (let i = 0; i < outgoing.length; i += RECORD_SLICE) slices.push(sendSlice(outgoing.slice(i, i + RECORD_SLICE)));
  await Promise.all(slices);
  return results;
}

/** One message: see sendQueuedMessages. */
export async function sendQueuedMessage(
  transport: SmsTransport,
  messageId: number,
  upstreamsFor?: UpstreamsFor,
): Promise<SendOutcome> {
  return (await sendQueuedMessages(transport, [messageId], upstreamsFor)).get(messageId)!;
}

/**
 * A send job's work: sends the batch, then adds the messages that met a temporary error as new
 * jobs due after their backoff (their outbox rows, due then too, cover a failure to add them).
 */
export async function sendAndRequeue(transport: SmsTransport, messageIds: number[], upstreamsFor?: UpstreamsFor) {
  const results = await sendQueuedMessages(transport, messageIds, upstreamsFor);
  const summary = { submitted: 0, failed: 0, unknown: 0, retried: 0, skipped: 0 };
  const retries = new Map<number, number[]>();
  for (const [id, result] of results) {
    if (result.kind === "submitted") summary.submitted += 1;
    else if (result.kind === "failed") summary.failed += 1;
    else if (result.kind === "skipped") summary.skipped += 1;
    else if (result.kind === "unknown") summary.unknown += 1;
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
  for (const [delay, ids] of retries) await addSmsSendJobs(ids, delay);
  return summary;
}
