import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { Coalescer, type CoalescerOptions, OneBatchAtATime, type Timers } from "#app/utils/coalescer.server.ts";

/** Timers that fire only when the test moves time on. */
function manualTimers() {
  let now = 0;
  let nextId = 1;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    setTimeout: (run, ms) => {
      const id = nextId++;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => void due.delete(id as number),
  };
  return {
    timers,
    pending: () => due.size,
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...due].sort(([, a], [, b]) => a.at - b.at)) {
        if (timer.at > now) continue;
        due.delete(id);
        timer.run();
      }
    },
  };
}

/** Lets the batch handlers' promises and the callers' callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function recording<Item, Result>(
  answer: (
    batch: Item[],
  ) => readonly (Result | PromiseLike<Result>)[] | Promise<readonly (Result | PromiseLike<Result>)[]>,
  options: Partial<CoalescerOptions<Item, Result>> = {},
) {
  const clock = manualTimers();
  const batches: Item[][] = [];
  const coalescer = new Coalescer<Item, Result>({
    windowMs: 10,
    timers: clock.timers,
    run: async (batch) => {
      batches.push(batch);
      return answer(batch);
    },
    ...options,
  });
  return { coalescer, batches, clock };
}

const double = (batch: number[]) => batch.map((n) => n * 2);

describe("Coalescer", () => {
  it("runs the items of one window as one batch, each caller getting its own result", async () => {
    const { coalescer, batches, clock } = recording(double);
    const results = [1, 2, 3].map((n) => coalescer.add(n));
    clock.advance(9);
    await settle();
    expect(batches).toEqual([]);
    clock.advance(1);
    expect(await Promise.all(results)).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(clock.pending()).toBe(0);
  });

  it("starts the window at the first item of a batch, not at each item", async () => {
    const { coalescer, batches, clock } = recording(double);
    void coalescer.add(1);
    clock.advance(6);
    void coalescer.add(2);
    clock.advance(4);
    await settle();
    expect(batches).toEqual([[1, 2]]);
    void coalescer.add(3);
    clock.advance(10);
    await settle();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it("runs a batch at once when it reaches the maximum", async () => {
    const { coalescer, batches, clock } = recording(double, { maxBatch: 2 });
    const first = [coalescer.add(1), coalescer.add(2)];
    expect(await Promise.all(first)).toEqual([2, 4]);
    expect(clock.pending()).toBe(0);
    const rest = [3, 4, 5].map((n) => coalescer.add(n));
    await settle();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    clock.advance(10);
    expect(await Promise.all(rest)).toEqual([6, 8, 10]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("counts the maximum per key", async () => {
    const { coalescer, batches, clock } = recording(double, { maxBatch: 3, key: (n: number) => n % 2 });
    const results = [1, 2, 3, 4, 5, 6, 7].map((n) => coalescer.add(n));
    await settle();
    // Each key ran on reaching 3; the odd key's fourth item waits for the window.
    expect(batches).toEqual([
      [1, 3, 5],
      [2, 4, 6],
    ]);
    clock.advance(10);
    expect(await Promise.all(results)).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(batches).toEqual([[1, 3, 5], [2, 4, 6], [7]]);
  });

  it("keeps items of different keys in different batches that run at the same window's end", async () => {
    const { coalescer, batches, clock } = recording(
      (batch: { user: number; n: number }[]) => batch.map((item) => item.n),
      {
        key: (item) => item.user,
      },
    );
    const results = [
      { user: 1, n: 10 },
      { user: 2, n: 20 },
      { user: 1, n: 11 },
    ].map((item) => coalescer.add(item));
    clock.advance(10);
    expect(await Promise.all(results)).toEqual([10, 20, 11]);
    expect(batches.map((batch) => batch.map((item) => item.n))).toEqual([[10, 11], [20]]);
  });

  it("rejects only the callers of a failing batch", async () => {
    const { coalescer, clock } = recording(
      (batch: number[]) => {
        if (batch.includes(0)) throw new Error("batch failed");
        return double(batch);
      },
      { key: (n: number) => (n < 10 ? "small" : "large") },
    );
    const failing = [coalescer.add(0), coalescer.add(1)];
    const fine = coalescer.add(10);
    clock.advance(10);
    for (const result of failing) await expect(result).rejects.toThrow("batch failed");
    expect(await fine).toBe(20);
    // The next window is not affected.
    const later = coalescer.add(2);
    clock.advance(10);
    expect(await later).toBe(4);
  });

  it("lets a batch fail one item alone with a rejected promise as its result", async () => {
    const { coalescer, clock } = recording((batch: number[]) =>
      batch.map((n) => (n < 0 ? Promise.reject(new Error(`no ${n}`)) : Promise.resolve(n))),
    );
    const results = [coalescer.add(1), coalescer.add(-1), coalescer.add(2)];
    clock.advance(10);
    expect(await results[0]).toBe(1);
    await expect(results[1]).rejects.toThrow("no -1");
    expect(await results[2]).toBe(2);
  });

  it("refuses a handler that answers a different number of results than items", async () => {
    const { coalescer, clock } = recording((batch: number[]) => batch.slice(1));
    const results = [coalescer.add(1), coalescer.add(2)];
    clock.advance(10);
    for (const result of results) await expect(result).rejects.toThrow("A batch of 2 items gave 1 results");
  });

  it("flush() runs what waits without the window and resolves when it has settled", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { coalescer, batches, clock } = recording(async (batch: number[]) => {
      await gate;
      return double(batch);
    });
    const results = [coalescer.add(1), coalescer.add(2)];
    let flushed = false;
    const flushing = coalescer.flush().then(() => (flushed = true));
    await settle();
    expect(batches).toEqual([[1, 2]]);
    expect(clock.pending()).toBe(0);
    expect(flushed).toBe(false);
    release();
    await flushing;
    expect(await Promise.all(results)).toEqual([2, 4]);
    // Nothing waiting: flush resolves at once.
    await coalescer.flush();
  });

  it("flush() also waits for the items' own results", async () => {
    let release!: () => void;
    const later = new Promise<number>((resolve) => (release = () => resolve(7)));
    const { coalescer } = recording((batch: number[]) => batch.map(() => later));
    const result = coalescer.add(1);
    let flushed = false;
    const flushing = coalescer.flush().then(() => (flushed = true));
    await settle();
    expect(flushed).toBe(false);
    release();
    await flushing;
    expect(await result).toBe(7);
  });

  it("shutdown() drains what waits, then runs each later item at once and alone", async () => {
    const { coalescer, batches, clock } = recording(double, { maxBatch: 100 });
    const waiting = [coalescer.add(1), coalescer.add(2)];
    await coalescer.shutdown();
    expect(await Promise.all(waiting)).toEqual([2, 4]);
    expect(batches).toEqual([[1, 2]]);
    const after = [coalescer.add(3), coalescer.add(4)];
    // No timer is left behind to keep the process alive.
    expect(clock.pending()).toBe(0);
    expect(await Promise.all(after)).toEqual([6, 8]);
    expect(batches).toEqual([[1, 2], [3], [4]]);
    await coalescer.shutdown();
  });

  it("post() batches an item like add() without a promise for its caller", async () => {
    const { coalescer, batches, clock } = recording(double);
    coalescer.post(1);
    const second = coalescer.add(2);
    clock.advance(10);
    expect(await second).toBe(4);
    expect(batches).toEqual([[1, 2]]);
    coalescer.post(3);
    await coalescer.flush();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it("post() leaves a failure unhandled, as an add() nobody awaits would", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const failing = recording((batch: number[]) => {
        throw new Error(`batch of ${batch.length}`);
      });
      failing.coalescer.post(1);
      await failing.coalescer.flush();
      const rejecting = recording((batch: number[]) => batch.map(() => Promise.reject(new Error("item"))));
      rejecting.coalescer.post(2);
      await rejecting.coalescer.flush();
      await settle();
      expect(unhandled.map((error) => (error as Error).message)).toEqual(["batch of 1", "item"]);
    } finally {
      process.off("unhandledRejection", record);
    }
  });

  describe("oneAtATime", () => {
    /** Batches that end when the test says, one key per item's tens (11 and 12 share key 1). */
    function heldPerKey(maxBatch?: number) {
      const finish: (() => void)[] = [];
      const held = recording<number, number>(
        async (batch) => {
          await new Promise<void>((resolve) => finish.push(resolve));
          return double(batch);
        },
        { oneAtATime: true, key: (n) => Math.floor(n / 10), maxBatch },
      );
      return { ...held, finishNext: () => finish.shift()!() };
    }

    it("runs a key's next batch only when its running one ends, with everything that gathered meanwhile", async () => {
      const { coalescer, batches, clock, finishNext } = heldPerKey();
      const first = coalescer.add(11);
      clock.advance(10);
      await settle();
      const behind = [coalescer.add(12), coalescer.add(13)];
      clock.advance(10);
      const later = coalescer.add(14);
      clock.advance(10);
      await settle();
      expect(batches).toEqual([[11]]);
      finishNext();
      expect(await first).toBe(22);
      await settle();
      expect(batches).toEqual([[11], [12, 13, 14]]);
      finishNext();
      expect(await Promise.all([...behind, later])).toEqual([24, 26, 28]);
    });

    it("lets another key's batch run meanwhile", async () => {
      const { coalescer, batches, clock, finishNext } = heldPerKey();
      const results = [coalescer.add(11)];
      clock.advance(10);
      results.push(coalescer.add(12), coalescer.add(21));
      clock.advance(10);
      await settle();
      expect(batches).toEqual([[11], [21]]);
      finishNext();
      finishNext();
      await settle();
      expect(batches).toEqual([[11], [21], [12]]);
      finishNext();
      expect(await Promise.all(results)).toEqual([22, 24, 42]);
    });

    it("runs what waited maxBatch at a time, and flush() waits for all of it", async () => {
      const { coalescer, batches, clock, finishNext } = heldPerKey(2);
      const results = [11, 12, 13, 14, 15].map((n) => coalescer.add(n));
      clock.advance(10);
      await settle();
      expect(batches).toEqual([[11, 12]]);
      let flushed = false;
      const flushing = coalescer.flush().then(() => (flushed = true));
      for (let i = 0; i < 2; i++) {
        finishNext();
        await settle();
        expect(flushed).toBe(false);
      }
      expect(batches).toEqual([[11, 12], [13, 14], [15]]);
      finishNext();
      await flushing;
      expect(await Promise.all(results)).toEqual([22, 24, 26, 28, 30]);
    });
  });

  it("runs with the real timers by default", async () => {
    const coalescer = new Coalescer<number, number>({ windowMs: 1, run: async (batch) => double(batch) });
    expect(await Promise.all([coalescer.add(1), coalescer.add(2)])).toEqual([2, 4]);
  });
});

describe("OneBatchAtATime", () => {
  const settledMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

  /** A queue whose batches finish when the test says; what each batch was given. */
  function heldQueue() {
    const batches: number[][] = [];
    const finish: (() => void)[] = [];
    const queue = new OneBatchAtATime(async (batch: number[]) => {
      batches.push(batch);
      await new Promise<void>((resolve) => finish.push(resolve));
      if (batch.includes(-1)) throw new Error("refused");
      return batch.map((n) => n * 10);
    });
    return { queue, batches, finishNext: () => finish.shift()!() };
  }

  it("runs an item of an idle queue at once and alone; those that come meanwhile go together next, each with its result", async () => {
    const { queue, batches, finishNext } = heldQueue();
    const first = queue.add(1);
    expect(batches).toEqual([[1]]);
    const later = [queue.add(2), queue.add(3), queue.add(4)];
    expect(batches).toEqual([[1]]);
    finishNext();
    expect(await first).toBe(10);
    await settledMicrotasks();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finishNext();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it("fails each item of a batch that throws, and runs the next batch", async () => {
    const { queue, batches, finishNext } = heldQueue();
    const first = queue.add(1);
    const refused = [queue.add(-1), queue.add(5)];
    finishNext();
    expect(await first).toBe(10);
    await settledMicrotasks();
    const after = queue.add(6);
    finishNext();
    for (const item of refused) await expect(item).rejects.toThrow("refused");
    await settledMicrotasks();
    finishNext();
    expect(await after).toBe(60);
    expect(batches).toEqual([[1], [-1, 5], [6]]);
  });

  it("runs a batch outside the async context of the caller that started it", async () => {
    const store = new AsyncLocalStorage<string>();
    const queue = new OneBatchAtATime(async (batch: number[]) => batch.map(() => store.getStore() ?? "none"));
    expect(await store.run("a caller's transaction", () => queue.add(1))).toBe("none");
  });
});
