// This process's sending counters, for GET /metrics: plain numbers on the hot path, published by a
// worker process with its heartbeat (app/modules/health/heartbeat.server.ts) and summed by the web.

/** Receipt delay buckets, in seconds: from the SMSC's acceptance to the first receipt. */
export const RECEIPT_DELAY_BUCKETS = [1, 5, 15, 60, 300, 1800, 3600, 6 * 3600, 24 * 3600];

export type SmsCounters = {
  /** Messages the SMSC accepted, refused for good, or that met a temporary error (retried). */
  submitted: number;
  failed: number;
  retried: number;
  /** Receipts applied to an accepted part, and how long after its acceptance each came. */
  receipts: number;
  receiptDelayBuckets: number[];
  receiptDelaySum: number;
};

let counters: SmsCounters | undefined;

export function smsCounters(): SmsCounters {
  return (counters ??= {
    submitted: 0,
    failed: 0,
    retried: 0,
    receipts: 0,
    receiptDelayBuckets: RECEIPT_DELAY_BUCKETS.map(() => 0),
    receiptDelaySum: 0,
  });
}

export function countReceipt(delayMs: number): void {
  const c = smsCounters();
  const seconds = Math.max(0, delayMs / 1000);
  c.receipts += 1;
  c.receiptDelaySum += seconds;
  for (let i = 0; i < RECEIPT_DELAY_BUCKETS.length; i++)
    if (seconds <= RECEIPT_DELAY_BUCKETS[i]) c.receiptDelayBuckets[i] += 1;
}
