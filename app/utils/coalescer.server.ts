// Many small calls that arrive close together, run as one batch: one transaction, one Redis round
// trip. Each caller still gets its own answer. The owner creates an instance and shuts it down
// with the process, so nothing waits in memory when it exits.
import { AsyncResource } from "node:async_hooks";

export type Timers = {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (timer: unknown) => void;
};

const realTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export type CoalescerOptions<Item, Result> = {
  /** How long the first item of a batch waits for others. */
  windowMs: number;
  /** A batch this big runs at once, without waiting for the window. */
  maxBatch?: number;
  /** Items of different keys never share a batch (the window is shared). */
  key?: (item: Item) => unknown;
  /**
   * A key's batch waits while that key's previous batch runs; what gathered meanwhile then runs as
   * one (up to maxBatch at a time). For batches that would only queue for the same lock anyway (one
   * account's balance row): one transaction at a time, each bigger, instead of several waiting.
   */
  oneAtATime?: boolean;
  /**
   * Runs one batch: one result per item, in order. A result may be a promise, which settles that
   * item alone (e.g. a rejected one fails only its caller); throwing fails every item of the batch.
   */
  run: (batch: Item[]) => Promise<readonly (Result | PromiseLike<Result>)[]>;
  timers?: Timers;
};

type Waiting<Item, Result> = {
  item: Item;
  resolve: (result: Result | PromiseLike<Result>) => void;
  reject: (error: unknown) => void;
};

/**
 * Collects items for `windowMs` after the first one (or until a key has `maxBatch`), then runs one
 * batch per key. After shutdown() an item is not refused: it runs at once in a batch of its own,
 * so a request still in flight while the process stops gets its answer.
 */
export class Coalescer<Item, Result> {
  private readonly options: CoalescerOptions<Item, Result>;
  private readonly timers: Timers;
  private readonly maxBatch: number;
  private pending = new Map<unknown, Waiting<Item, Result>[]>();
  private timer: unknown = undefined;
  private readonly running = new Set<Promise<unknown>>();
  /** With oneAtATime: the keys with a batch running, each with the items waiting for it to end. */
  private readonly queuedBehind = new Map<unknown, Waiting<Item, Result>[]>();
  private stopped = false;

  constructor(options: CoalescerOptions<Item, Result>) {
    this.options = options;
    this.timers = options.timers ?? realTimers;
    this.maxBatch = options.maxBatch ?? Number.POSITIVE_INFINITY;
  }

  /** The item's result, once its batch has run. */
  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => this.enter({ item, resolve, reject }));
  }

  /**
   * Like add(), for a caller that does not wait for the result (e.g. one item per SMPP receipt):
   * no promise is made for it. Its failure (the batch throwing, or its own result rejecting) is an
   * unhandled rejection, as it would be for an add() whose promise nobody awaits.
   */
  post(item: Item): void {
    this.enter({ item, resolve: unwatched, reject: rethrow });
  }

  private enter(waiting: Waiting<Item, Result>) {
    const key = this.options.key?.(waiting.item);
    if (this.stopped) {
      this.runBatch(key, [waiting]);
      return;
    }
    let list = this.pending.get(key);
    if (!list) this.pending.set(key, (list = []));
    list.push(waiting);
    if (list.length >= this.maxBatch) {
      this.pending.delete(key);
      this.runBatch(key, list);
      if (this.pending.size === 0) this.stopTimer();
    } else if (this.timer === undefined) {
      this.timer = this.timers.setTimeout(() => this.runPending(), this.options.windowMs);
    }
  }

  /** Runs what is waiting now; resolves when every batch started so far has settled. */
  async flush(): Promise<void> {
    this.runPending();
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Drains like flush(); items added afterwards run at once, each alone. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  private stopTimer() {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private runPending() {
    this.stopTimer();
    const due = this.pending;
    this.pending = new Map();
    for (const [key, list] of due) this.runBatch(key, list);
  }

  private runBatch(key: unknown, batch: Waiting<Item, Result>[]) {
    if (this.options.oneAtATime) {
      const behind = this.queuedBehind.get(key);
      if (behind) {
        behind.push(...batch);
        return;
      }
      this.queuedBehind.set(key, []);
    }
    const settled = this.settle(batch);
    this.running.add(settled);
    void settled.finally(() => {
      if (this.options.oneAtATime) this.runNext(key);
      this.running.delete(settled);
    });
  }

  /** oneAtATime: the key's batch has ended; what waited behind it runs next (before flush() can see none running). */
  private runNext(key: unknown) {
    const behind = this.queuedBehind.get(key) ?? [];
    this.queuedBehind.delete(key);
    if (behind.length === 0) return;
    this.runBatch(key, behind.slice(0, this.maxBatch));
    this.queuedBehind.get(key)!.push(...behind.slice(this.maxBatch));
  }

  /** Runs the batch and hands each caller its result; settles when every caller's result has. */
  private async settle(batch: Waiting<Item, Result>[]): Promise<void> {
    let results: readonly (Result | PromiseLike<Result>)[];
    try {
      results = await this.options.run(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length)
        throw new Error(`A batch of ${batch.length} items gave ${results.length} results`);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => waiting.resolve(results[i]));
    // Only results still pending keep the batch running; allSettled over plain values would cost
    // two promises per item on every batch (the API's hot path runs two coalescers per request).
    const pending = results.filter(isPromiseLike);
    if (pending.length > 0) await Promise.allSettled(pending);
  }
}

const rethrow = (error: unknown) => void Promise.reject(error);
const unwatched = (result: unknown) => void (isPromiseLike(result) && result.then(undefined, rethrow));

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

/**
 * Runs one batch at a time: items that arrive while a batch runs wait together for the next one (a
 * group commit). For work that holds a lock shared with other processes (a transaction's turn): the
 * lock is taken once per batch rather than once per item, and batches grow as the process gets busier.
 * An idle queue runs an item at once, alone. A batch that throws fails each of its items. Batches run
 * in the async context the queue was made in, never in one caller's (e.g. inside its transaction).
 */
export class OneBatchAtATime<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private busy = false;
  private readonly run: (batch: Item[]) => Promise<readonly Result[]>;
  private readonly context = new AsyncResource("OneBatchAtATime");

  constructor(run: (batch: Item[]) => Promise<readonly Result[]>) {
    this.run = run;
  }

  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.busy) void this.context.runInAsyncScope(() => this.drain());
    });
  }

  private async drain() {
    this.busy = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const results = await this.run(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, i) => waiting.resolve(results[i]));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.busy = false;
  }
}
