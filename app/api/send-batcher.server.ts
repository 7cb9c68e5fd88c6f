// API sends that arrive together are queued together: one queueMessages call (one SQLite
// transaction, one Redis round trip for the jobs) per user per millisecond instead of one per
// request, which is what lets one process accept thousands of messages a second.
import { InsufficientCreditsError } from "../modules/credits/ledger.server.ts";
import { type NewMessage, type QueuedMessage, queueMessage, queueMessages } from "../modules/sms/send.server.ts";

// Keeps each write transaction short.
const MAX_BATCH = 500;
const FLUSH_MS = 1;

type Waiting = { message: NewMessage; resolve: (queued: QueuedMessage) => void; reject: (error: unknown) => void };

let waiting = new Map<number, Waiting[]>();
let flushScheduled = false;

async function queueBatch(userId: number, batch: Waiting[]): Promise<void> {
  try {
    const { messages } = await queueMessages(userId, batch.map((w) => w.message), { waitForJobs: false });
    batch.forEach((w, i) => w.resolve(messages[i]));
  } catch (error) {
    if (!(error instanceof InsufficientCreditsError) || batch.length === 1) {
      for (const w of batch) w.reject(error);
      return;
    }
    // Together they cost too much: one by one in arrival order, so each that still fits is sent.
    for (const w of batch) await queueMessage(userId, w.message).then(w.resolve, w.reject);
  }
}

function flush() {
  flushScheduled = false;
  const due = waiting;
  waiting = new Map();
  for (const [userId, all] of due) {
    for (let i = 0; i < all.length; i += MAX_BATCH) void queueBatch(userId, all.slice(i, i + MAX_BATCH));
  }
}

/** queueMessage, batched with the user's other sends that arrive within the same FLUSH_MS window (1 ms). */
export function queueBatchedMessage(userId: number, message: NewMessage): Promise<QueuedMessage> {
  return new Promise((resolve, reject) => {
    let list = waiting.get(userId);
    if (!list) waiting.set(userId, (list = []));
    list.push({ message, resolve, reject });
    if (!flushScheduled) {
      flushScheduled = true;
      // A millisecond gathers more requests into each write than the next turn of the event loop.
      setTimeout(flush, FLUSH_MS);
    }
  });
}
