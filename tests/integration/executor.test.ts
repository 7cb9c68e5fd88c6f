// The async executor's lock (decisions 123 and 125): a transaction's async chain holds the one
// connection, every other chain's statement waits its turn instead of running inside it.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { afterCommit, getDb, read, rolledBackTransactions, runningTransaction, withTx } from "#app/db/client.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";

/** A promise and the function that settles it: holds a transaction open until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const queries = statements({
  countNamed: sqlText<[string], { n: number }>("select count(*) as n from packages where name = ?"),
});

const named = async (name: string) => (await queries.countNamed.get(name))!.n;

async function insertPackage(name: string, db = getDb()) {
  await db.insert(packages).values({ name, priceCents: 100, credits: 10 }).run();
}

describe("the connection's lock", () => {
  it("makes another chain's statement wait for a running transaction instead of running inside it", async () => {
    const hold = gate();
    const order: string[] = [];
    const transaction = withTx(async (tx) => {
      await insertPackage("lock-a", tx);
      order.push("a inserted");
      await hold.opened;
      order.push("a commits");
    });
    // Another request's read while the transaction is open: it must not see (or join) its write.
    const other = named("lock-a").then((n) => {
      order.push(`b read ${n}`);
      return n;
    });
    await new Promise((resume) => setImmediate(resume));
    expect(order).toEqual(["a inserted"]);
    hold.open();
    await transaction;
    expect(await other).toBe(1);
    expect(order).toEqual(["a inserted", "a commits", "b read 1"]);
  });

  it("keeps another chain's write out of a transaction that rolls back", async () => {
    const hold = gate();
    const failing = withTx(async (tx) => {
      await insertPackage("lock-rolled-back", tx);
      await hold.opened;
      throw new Error("rolled back on purpose");
    });
    const outsider = insertPackage("lock-outsider");
    await new Promise((resume) => setImmediate(resume));
    hold.open();
    await expect(failing).rejects.toThrow("rolled back on purpose");
    await outsider;
    expect(await named("lock-rolled-back")).toBe(0);
    expect(await named("lock-outsider")).toBe(1);
  });

  it("serves waiting transactions first come, first served", async () => {
    const hold = gate();
    const order: number[] = [];
    const first = withTx(async () => {
      await hold.opened;
      order.push(1);
    });
    const rest = [2, 3, 4].map((n) => withTx(async () => void order.push(n)));
    hold.open();
    await Promise.all([first, ...rest]);
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it("runs a nested transaction as a savepoint of the outer one, and refuses two at once", async () => {
    const rolledBackBefore = rolledBackTransactions();
    await withTx(async (tx) => {
      const outer = runningTransaction();
      await insertPackage("nested-kept", tx);
      await expect(
        withTx(async (inner) => {
          expect(runningTransaction()).not.toBe(outer);
          await insertPackage("nested-dropped", inner);
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
      expect(runningTransaction()).toBe(outer);
      await expect(
        Promise.all([withTx(() => new Promise((resume) => setImmediate(resume))), withTx(async () => {})]),
      ).rejects.toThrow("one after another");
    });
    expect(rolledBackTransactions()).toBe(rolledBackBefore + 1);
    expect(await named("nested-kept")).toBe(1);
    expect(await named("nested-dropped")).toBe(0);
    expect(runningTransaction()).toBeNull();
  });

  it("runs after-commit work after the COMMIT, outside the lock, and never after a rollback", async () => {
    const seen: number[] = [];
    await withTx(async (tx) => {
      await insertPackage("after-commit-async", tx);
      afterCommit(() => {
        // The hook may use the database at once: the transaction has let the connection go.
        void named("after-commit-async").then((n) => seen.push(n));
      });
    });
    await expect(
      withTx(async () => {
        afterCommit(() => seen.push(-1));
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    await new Promise((resume) => setImmediate(resume));
    expect(seen).toEqual([1]);
  });

  it("does not let a callback scheduled inside a finished transaction act as its holder", async () => {
    const hold = gate();
    const fired = gate();
    let late: Promise<number> | undefined;
    await withTx(async (tx) => {
      await insertPackage("late-timer", tx);
      // Runs after this transaction has committed, while the next one below is open.
      setTimeout(() => {
        late = named("late-timer-2");
        fired.open();
      }, 0);
    });
    const next = withTx(async (tx) => {
      await insertPackage("late-timer-2", tx);
      await hold.opened;
      throw new Error("rolled back on purpose");
    });
    await fired.opened;
    hold.open();
    await expect(next).rejects.toThrow("rolled back on purpose");
    // It waited for the second transaction to end instead of reading its row inside it.
    expect(await late).toBe(0);
  });

  it("gives read() one state of the database while writers wait", async () => {
    await insertPackage("read-state");
    const hold = gate();
    const seen = read(async (db) => {
      const before = await db
        .select({ n: sql<number>`count(*)` })
        .from(packages)
        .where(eq(packages.name, "read-state"))
        .get();
      await hold.opened;
      const after = await db
        .select({ n: sql<number>`count(*)` })
        .from(packages)
        .where(eq(packages.name, "read-state"))
        .get();
      return [before!.n, after!.n];
    });
    const writer = insertPackage("read-state");
    await new Promise((resume) => setImmediate(resume));
    hold.open();
    expect(await seen).toEqual([1, 1]);
    await writer;
    expect(await named("read-state")).toBe(2);
  });
});
