// A batch of messages queued in order, each on its own merits: unlike queueMessages (all or
// nothing), a recipient that cannot be sent to gets its reason and the rest still go, and the
// balance pays the batch from the first item on until it runs out (docs/decisions/036-batch-sends.md).
import { and, eq } from "drizzle-orm";
import { withTxWithoutStalling, type Tx } from "#app/db/client.server.ts";
import { messageBatches } from "#app/db/schema/message-batches.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { bookEntries, lockBalance } from "#app/modules/credits/ledger.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { resolveSends } from "#app/modules/opt-outs/enforcement.server.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { insertOrFindMessages, insertOutboxRows, type MessageToStore } from "#app/modules/sms/message-store.server.ts";
import { saveStatusCallback } from "#app/modules/sms/message-events.server.ts";
import { type BatchRefusal, MAX_BATCH_MESSAGES } from "#app/modules/sms/batch.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { type QueuedMessage } from "#app/modules/sms/send.server.ts";
import { type PriceList, pricedFor } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { addSmsSendJobs } from "#app/queue/jobs/sms-send.server.ts";

export type BatchItem =
  | { to: string; body: string; from?: string; statusCallback?: string; apiKeyId?: number }
  /** A recipient already found unusable (e.g. not a phone number), kept for its place in the answer. */
  | { invalid: string };

export type BatchOutcome =
  { queued: true; message: QueuedMessage } | { queued: false; code: BatchRefusal; message: string };

export type BatchResult = { outcomes: BatchOutcome[]; credits: number; balance: number; replayed: boolean };

export class BatchKeyConflictError extends Error {
  constructor() {
    super("This idempotency key was used before with another batch");
    this.name = "BatchKeyConflictError";
  }
}

async function storedBatch(tx: Tx, userId: number, key: string) {
  return await tx
    .select()
    .from(messageBatches)
    .where(and(eq(messageBatches.userId, userId), eq(messageBatches.idempotencyKey, key)))
    .get();
}

type Refusal = Extract<BatchOutcome, { queued: false }>;
type Sendable = Exclude<BatchItem, { invalid: string }>;

/** The items' outcomes, in order; the messages, outbox rows and debits written in `tx`, a statement each for all. */
async function queueInOrder(
  tx: Tx,
  userId: number,
  items: BatchItem[],
  balance: number,
  prices: PriceList,
  now: number,
): Promise<BatchResult> {
  let remaining = balance;
  // Once the balance could not pay one item, it pays none after it: what was queued is a prefix of the paying items.
  let exhausted = false;
  const sendable = items.filter((item): item is Sendable => !("invalid" in item));
  const resolved = new Map((await resolveSends(userId, sendable)).map((send, i) => [sendable[i], send]));
  const accepted: { item: Sendable; row: MessageToStore }[] = [];
  // A refusal per item that cannot go, null for each accepted one (in order).
  const refusals = items.map((item): Refusal | null => {
    if ("invalid" in item) return { queued: false, code: "invalid_phone", message: item.invalid };
    const { fromAddress, optedOut } = resolved.get(item)!;
    if (item.from && fromAddress === null)
      return { queued: false, code: "unknown_sender", message: new UnknownSenderError(item.from).message };
    if (optedOut) return { queued: false, code: "recipient_opted_out", message: new OptedOutError([item.to]).message };
    const count = pricedFor(countSegments(item.body), prices, item.to);
    if (exhausted || count.credits > remaining) {
      exhausted = true;
      return {
        queued: false,
        code: "insufficient_credits",
        message: `Not enough credits left in this batch: it costs ${count.credits}, ${remaining} remained`,
      };
    }
    remaining -= count.credits;
    const message = {
      to: item.to,
      body: item.body,
      from: fromAddress,
      source: "api" as const,
      apiKeyId: item.apiKeyId,
    };
    accepted.push({
      item,
      row: { message, count, initial: { status: "queued", credits: count.credits, error: null } },
    });
    return null;
  });
  // Without an API reference or a schedule none is a duplicate: each is inserted.
  const stored = await insertOrFindMessages(
    userId,
    accepted.map(({ row }) => row),
    now,
  );
  const queued = accepted.map(({ row: { message, count } }, i): QueuedMessage => {
    const { encoding, segments, credits } = count;
    return {
      id: stored[i].id,
      to: message.to,
      from: message.from ?? null,
      encoding,
      segments,
      credits,
      createdAt: now,
      duplicate: false,
    };
  });
  await insertOutboxRows(queued.map(({ id }) => ({ id, dueAt: now })));
  for (const [i, { item }] of accepted.entries()) {
    if (item.statusCallback) await saveStatusCallback(tx, userId, queued[i].id, item.statusCallback);
  }
  const debits = queued.map(({ id, credits }) => ({
    kind: "debit" as const,
    amount: -credits,
    key: `msg:${id}:debit`,
  }));
  // Never short: each debit was checked against what remained.
  const credits = -(await bookEntries(tx, userId, debits));
  let next = 0;
  const outcomes = refusals.map((refusal): BatchOutcome => refusal ?? { queued: true, message: queued[next++] });
  return { outcomes, credits, balance: remaining, replayed: false };
}

/**
 * Queues each item it can, in order, in ONE transaction: a message row, outbox row and debit per
 * queued item; a refusal per other item (invalid_phone, recipient_opted_out, unknown_sender,
 * insufficient_credits once the balance has run out). With an idempotency key the outcomes are
 * stored in the same transaction: a retry with the key and the same `fingerprint` answers them
 * again (replayed) and queues and charges nothing; another fingerprint is BatchKeyConflictError.
 */
export async function queueBatch(
  userId: number,
  items: BatchItem[],
  idempotency?: { key: string; fingerprint: string },
): Promise<BatchResult> {
  if (items.length > MAX_BATCH_MESSAGES) throw new Error(`At most ${MAX_BATCH_MESSAGES} messages in a batch`);
  const now = clock.now();
  const prices = await currentPriceList();
  const result = await withTxWithoutStalling(
    async (tx): Promise<BatchResult> => {
      // First: a batch of the account waits here for the one before it, then sees its key and balance.
      const balance = await lockBalance(userId);
      if (idempotency) {
        const earlier = await storedBatch(tx, userId, idempotency.key);
        if (earlier) {
          if (earlier.fingerprint !== idempotency.fingerprint) throw new BatchKeyConflictError();
          const outcomes = JSON.parse(earlier.outcomes) as BatchOutcome[];
          const credits = outcomes.reduce((sum, o) => sum + (o.queued ? o.message.credits : 0), 0);
          return { outcomes, credits, balance, replayed: true };
        }
      }
      const fresh = await queueInOrder(tx, userId, items, balance, prices, now);
      if (idempotency) {
        await tx
          .insert(messageBatches)
          .values({
            userId,
            idempotencyKey: idempotency.key,
            fingerprint: idempotency.fingerprint,
            outcomes: JSON.stringify(fresh.outcomes),
            createdAt: new Date(now),
          })
          .run();
      }
      return fresh;
    },
    // A COMMIT cut off is looked up: the client is answered what happened, not an error (decision 146).
    { readCommitted: true, lookUpCutOffCommit: true },
  );
  if (!result.replayed) {
    const ids = result.outcomes.flatMap((o) => (o.queued ? [o.message.id] : []));
    if (ids.length > 0) await enqueueAfterCommit(pluralize(ids.length, "message"), () => addSmsSendJobs(ids));
  }
  return result;
}
