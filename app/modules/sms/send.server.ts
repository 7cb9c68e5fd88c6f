import { usesPostgres, withTxWithoutStalling, type Tx } from "#app/db/client.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addSmsSendJobs } from "#app/queue/jobs/sms-send.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { Coalescer } from "#app/utils/coalescer.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { bookEntries } from "#app/modules/credits/ledger.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { resolveSends } from "#app/modules/opt-outs/enforcement.server.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { insertOrFindMessages, insertOutboxRows, type NewMessage } from "#app/modules/sms/message-store.server.ts";
import { saveStatusCallback } from "#app/modules/sms/message-events.server.ts";
import { isE164 } from "#app/modules/messaging/phone.ts";
import { holdForQuietHours } from "#app/modules/quiet-hours/quiet-hours.server.ts";
import { countSegments, type SegmentCount, type SmsEncoding } from "#app/modules/messaging/segments.ts";
import { pricedFor } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";

export type { NewMessage };

export type QueuedMessage = {
  id: number;
  to: string;
  /** The sender address it goes out from; null: the gateway's shared sender (unknown for a duplicate). */
  from: string | null;
  encoding: SmsEncoding;
  segments: number;
  credits: number;
  createdAt: number;
  /** True when an earlier message with the same schedule occurrence, API reference or group send member was found instead. */
  duplicate: boolean;
  /** Held back by quiet hours until then (UTC ms). */
  deferredUntil?: number;
};

export type QueueResult = { messages: QueuedMessage[]; credits: number };

// Messages queued within this window share one round trip to Redis and fill jobs: every job costs
// the worker two BullMQ scripts (fetch, finish) whatever its size, and at 2 ms that was a tenth of
// the gateway's CPU per message. A person does not notice 10 ms; an API client does not wait for it.
const ENQUEUE_WINDOW_MS = 10;
// Made on the first send, shut down with the process (shutdownSendJobs).
let sendJobs: Coalescer<number[], void> | undefined;

/** addSmsSendJobs for messages queued close together; resolves once their jobs are in Redis. */
function enqueueTogether(messageIds: number[]): Promise<void> {
  sendJobs ??= new Coalescer<number[], void>({
    windowMs: ENQUEUE_WINDOW_MS,
    run: async (lists: number[][]) => {
      await addSmsSendJobs(lists.flat());
      return lists.map(() => undefined);
    },
  });
  return sendJobs.add(messageIds);
}

/** For process shutdown, before the queues close: the send jobs still gathering are added. */
export async function shutdownSendJobs(): Promise<void> {
  await sendJobs?.shutdown();
}

type Priced = { message: NewMessage; count: SegmentCount };

/**
 * The messages, their outbox rows and their debits, a statement each for the whole batch; throws
 * (rolling back) when the balance is short.
 */
async function insertBatch(tx: Tx, userId: number, priced: Priced[], now: number): Promise<QueueResult> {
  const rows = priced.map(({ message, count }) => ({
    message,
    count,
    // Automatic replies to STOP, START and HELP are free to the customer.
    initial: { status: "queued" as const, credits: message.source === "keyword" ? 0 : count.credits, error: null },
  }));
  const stored = await insertOrFindMessages(userId, rows, now);
  const queued: QueuedMessage[] = [];
  const outbox: { id: number; dueAt: number }[] = [];
  const debits: { kind: "debit"; amount: number; key: string }[] = [];
  for (const [i, { message, count, initial }] of rows.entries()) {
    const inserted = stored[i];
    const from = message.from ?? null;
    if (inserted.duplicate) {
      queued.push({ ...inserted, to: message.to, from });
      continue;
    }
    const { id } = inserted;
    const { deferredUntil } = message;
    const { credits } = initial;
    // A message held by quiet hours is due when they end there; it is paid for now, like any other.
    outbox.push({ id, dueAt: deferredUntil ?? now });
    if (message.statusCallback) await saveStatusCallback(tx, userId, id, message.statusCallback);
    if (credits > 0) debits.push({ kind: "debit", amount: -credits, key: `msg:${id}:debit` });
    const { encoding, segments } = count;
    const fresh = { id, to: message.to, from, encoding, segments, credits, createdAt: now, duplicate: false };
    queued.push(deferredUntil === undefined ? fresh : { ...fresh, deferredUntil });
  }
  await insertOutboxRows(outbox);
  // Throws InsufficientCreditsError for the batch's sum, rolling every row above back.
  const moved = await bookEntries(tx, userId, debits);
  return { messages: queued, credits: -moved };
}

/**
 * Each message with the sender it goes out from (the one asked for, else the account's default),
 * resolved for the whole batch at once. Throws UnknownSenderError for the first `from` that is not
 * the account's, OptedOutError naming every number that opted out; automatic keyword replies go
 * where they were addressed.
 */
async function withSenders(userId: number, messages: NewMessage[]): Promise<NewMessage[]> {
  const checked = messages.filter((message) => message.source !== "keyword");
  const resolved = new Map((await resolveSends(userId, checked)).map((send, i) => [checked[i], send]));
  const optedOut: string[] = [];
  const withFrom = messages.map((message) => {
    const send = resolved.get(message);
    if (!send) return message;
    if (message.from && send.fromAddress === null) throw new UnknownSenderError(message.from);
    if (send.optedOut) optedOut.push(message.to);
    return send.fromAddress === (message.from ?? null) ? message : { ...message, from: send.fromAddress };
  });
  if (optedOut.length > 0) throw new OptedOutError([...new Set(optedOut)]);
  return withFrom;
}

/**
 * Queues one or many messages of one user. In ONE short transaction: every message row (`queued`),
 * its outbox row and its debit (`msg:<id>:debit`) in the ledger; then the send jobs, in one round
 * trip shared with the other messages queued in the same few milliseconds. Not enough credits for
 * the whole batch: InsufficientCreditsError (from the ledger, with `needed` and `balance`) and
 * nothing is written. A number that opted out: OptedOutError and nothing is written (see withSenders).
 * Keep batches to a few thousand so the write lock stays short.
 *
 * `waitForJobs: false` returns once the transaction has committed: the messages are safe from
 * then on (a job that never reaches Redis is added by the reconciler from the outbox), so an API
 * client need not wait for Redis too.
 */
export async function queueMessages(
  userId: number,
  messages: NewMessage[],
  { waitForJobs = true } = {},
): Promise<QueueResult> {
  const now = clock.now();
  // Counted once per distinct body: a group send's batch is a thousand of the same text.
  const counts = new Map<string, SegmentCount>();
  const prices = await currentPriceList();
  const priced: Priced[] = (await holdForQuietHours(userId, messages, now)).map((message) => {
    if (!isE164(message.to)) throw new Error(`Not an E.164 number: ${message.to}`);
    let count = counts.get(message.body);
    if (!count) counts.set(message.body, (count = countSegments(message.body)));
    if (count.segments < 1 || count.segments > getEnv().SMS_MAX_SEGMENTS) {
      throw new Error(`A message must have 1 to ${getEnv().SMS_MAX_SEGMENTS} segments, this one has ${count.segments}`);
    }
    return { message, count: pricedFor(count, prices, message.to) };
  });

  // Resolved inside the transaction: its snapshot serves the look-ups, with no read transaction of their own.
  // Every write is an insert or the ledger's guarded debit, so READ COMMITTED is enough (decision 131).
  const result = await withTxWithoutStalling(
    async (tx) => {
      const senders = await withSenders(
        userId,
        priced.map((p) => p.message),
      );
      return await insertBatch(
        tx,
        userId,
        priced.map((p, i) => ({ ...p, message: senders[i] })),
        now,
      );
    },
    // A COMMIT cut off is looked up: the client is answered what happened, not an error (decision 146).
    { readCommitted: true, lookUpCutOffCommit: true },
  );

  const fresh = result.messages.filter((m) => !m.duplicate && m.deferredUntil === undefined).map((m) => m.id);
  const enqueued = Promise.all([
    fresh.length === 0
      ? Promise.resolve()
      : enqueueAfterCommit(pluralize(fresh.length, "message"), () => enqueueTogether(fresh)),
    enqueueDeferred(result.messages),
  ]);
  if (waitForJobs) await enqueued;
  return result;
}

/** Delayed jobs for the messages quiet hours hold, one per instant they are due. */
function enqueueDeferred(messages: QueuedMessage[]): Promise<unknown> {
  const byDue = new Map<number, number[]>();
  for (const { id, duplicate, deferredUntil } of messages) {
    if (duplicate || deferredUntil === undefined) continue;
    const ids = byDue.get(deferredUntil);
    if (ids) ids.push(id);
    else byDue.set(deferredUntil, [id]);
  }
  if (byDue.size === 0) return Promise.resolve();
  return enqueueAfterCommit("messages held by quiet hours", async () => {
    for (const [due, ids] of byDue) await addSmsSendJobs(ids, due - clock.now());
  });
}

/**
 * Whether two queueMessages calls of one account at once would only wait for each other: on
 * PostgreSQL the second waits for the first's balance row, holding a connection meanwhile. On SQLite
 * a transaction runs to its end without yielding (one writer), so nothing waits.
 */
export const sendsOfOneAccountQueue = (): boolean => usesPostgres();

/** One message: see queueMessages. */
export async function queueMessage(userId: number, message: NewMessage): Promise<QueuedMessage> {
  const { messages } = await queueMessages(userId, [message]);
  return messages[0];
}

/**
 * Records a message that was never queued, as failed with the reason and nothing debited (e.g. a
 * schedule's occurrence the balance could not pay). A repeat of the same schedule occurrence or API
 * reference finds the first message instead, like queueMessages.
 */
export async function recordUnsentMessage(
  userId: number,
  message: NewMessage,
  reason: string,
): Promise<{ id: number; duplicate: boolean }> {
  const initial = { status: "failed", credits: 0, error: reason } as const;
  const [stored] = await insertOrFindMessages(
    userId,
    [{ message, count: countSegments(message.body), initial }],
    clock.now(),
  );
  return { id: stored.id, duplicate: stored.duplicate };
}
