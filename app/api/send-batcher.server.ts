// API sends that arrive together are queued together: one queueMessages call (one transaction, one
// Redis round trip for the jobs) per user per millisecond instead of one per request, which is what
// lets one process accept thousands of messages a second. On PostgreSQL one such transaction per user
// at a time: a second would only wait for the first's balance row; what gathers meanwhile goes next.
import { Coalescer } from "#app/utils/coalescer.server.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import {
  type NewMessage,
  type QueuedMessage,
  queueMessage,
  queueMessages,
  sendsOfOneAccountQueue,
} from "#app/modules/sms/send.server.ts";

// Keeps each write transaction short.
const MAX_BATCH = 500;
// A millisecond gathers more requests into each write than the next turn of the event loop.
const FLUSH_MS = 1;

type Send = { userId: number; message: NewMessage };

/** One user's sends in one queueMessages call; a result per send. */
async function queueBatch(batch: Send[]): Promise<(QueuedMessage | Promise<QueuedMessage>)[]> {
  const userId = batch[0].userId;
  try {
    const { messages } = await queueMessages(
      userId,
      batch.map((send) => send.message),
      { waitForJobs: false },
    );
    return messages;
  } catch (error) {
    const oneRefused =
      error instanceof InsufficientCreditsError ||
      error instanceof OptedOutError ||
      error instanceof UnknownSenderError;
    if (!oneRefused || batch.length === 1) throw error;
    // Together they cost too much, or one of them is refused: one by one in arrival order, so each
    // that can go is sent and each refusal answers its own request.
    let previous: Promise<unknown> = Promise.resolve();
    return batch.map((send) => {
      const queued = previous.then(() => queueMessage(userId, send.message));
      previous = queued.catch(() => undefined);
      return queued;
    });
  }
}

export type SendBatcher = Coalescer<Send, QueuedMessage>;

/** queueMessage, batched with the user's other sends that arrive within the same FLUSH_MS window (1 ms). */
export function createSendBatcher(): SendBatcher {
  return new Coalescer({
    windowMs: FLUSH_MS,
    maxBatch: MAX_BATCH,
    key: (send: Send) => send.userId,
    oneAtATime: sendsOfOneAccountQueue(),
    run: queueBatch,
  });
}
