import { count, desc, eq, sql } from "drizzle-orm";
import { alias } from "#app/db/dialect.server.ts";
import { type Executor, getDb, withTx } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { creditLedger, users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { type MovedBalance, noteBalanceMoved } from "#app/modules/credits/low-balance.server.ts";
import { addToRollup } from "#app/db/rollup-counts.server.ts";

export type LedgerKind = "grant" | "debit" | "refund" | "adjustment" | "reversal";

export class InsufficientCreditsError extends Error {
  readonly needed: number;
  readonly balance: number;
  constructor(needed: number, balance: number) {
    super(`Not enough credits: ${needed} needed, ${balance} available`);
    this.name = "InsufficientCreditsError";
    this.needed = needed;
    this.balance = balance;
  }
}

export type LedgerEntry = {
  userId: number;
  kind: LedgerKind;
  /** Signed credits: positive adds, negative takes away. */
  amount: number;
  /** Unique business key (e.g. `payment:pi_123`, `msg:42:debit`): a second booking is a no-op. */
  key: string;
  note?: string;
  /** The admin who booked it (operator grants and removals), and why. */
  actorUserId?: number;
  reason?: string;
};

/**
 * Books one entry inside the caller's transaction and moves the cached balance with it.
 * Returns false when the key was booked before. Throws InsufficientCreditsError (rolling the
 * caller's transaction back) when a negative amount would take the balance below zero.
 */
export async function bookEntry(tx: Executor, entry: LedgerEntry): Promise<boolean> {
  const { userId, ...rest } = entry;
  // A single entry moves exactly its (non-zero) amount when booked, and nothing when booked before.
  return (await bookEntries(tx, userId, [rest])) !== 0;
}

const queries = statements({
  insertEntry: sqlText<
    [number, LedgerKind, number, number, string, string | null, number | null, string | null, number]
  >(
    "insert into credit_ledger (user_id, kind, amount, shortfall, key, note, actor_user_id, reason, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict(key) do nothing",
  ),
  balanceForUpdate: sqlText<[number], { balance: number }>({
    sqlite: "select credit_balance as balance from users where id = ?",
    postgres: "select credit_balance as balance from users where id = $1 for update",
  }),
  // Returns what the low-balance alert needs, so an account without one pays a null check and no query.
  moveBalance: sqlText<[number, number, number], MovedBalance>(
    "update users set credit_balance = credit_balance + ? where id = ? and credit_balance >= ? returning credit_balance as balance, low_balance_threshold as threshold, low_balance_alerted as alerted",
  ),
  // The entries are one JSON parameter, each an array [kind, amount, key, note, actor, reason], so one
  // prepared statement books any number; RETURNING gives only the rows inserted, a key booked before
  // being skipped.
  insertEntries: sqlText<[number, number, string], { kind: LedgerKind; amount: number }>({
    sqlite: `insert into credit_ledger (user_id, created_at, shortfall, kind, amount, key, note, actor_user_id, reason)
   select ?, ?, 0, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5
   from jsonb_each(?)
   where true
   on conflict(key) do nothing
   returning kind, amount`,
    postgres: `insert into credit_ledger (user_id, created_at, shortfall, kind, amount, key, note, actor_user_id, reason)
   select $1::bigint, $2::bigint, 0, value ->> 0, (value ->> 1)::bigint, value ->> 2, value ->> 3, (value ->> 4)::bigint, value ->> 5
   from jsonb_array_elements($3::jsonb)
   on conflict(key) do nothing
   returning kind, amount`,
  }),
});

/** Moves the cached balance; false (nothing moved) when it would go below zero. */
async function moveBalanceOf(tx: Executor, userId: number, amount: number): Promise<boolean> {
  const moved = await queries.moveBalance.get(amount, userId, Math.max(0, -amount));
  if (!moved) return false;
  if (moved.threshold !== null) await noteBalanceMoved(tx, userId, { ...moved, threshold: moved.threshold });
  return true;
}

/** The dashboards count message debits (negative) and refunds (positive) as credits spent. */
async function countSpent(userId: number, booked: { kind: LedgerKind; amount: number }[], now: number): Promise<void> {
  const spent = booked.reduce((sum, e) => (e.kind === "debit" || e.kind === "refund" ? sum - e.amount : sum), 0);
  if (spent !== 0) await addToRollup([{ userId, at: now, credits: spent }]);
}

/**
 * Books many entries of one user inside the caller's transaction with one insert and one balance
 * update, for batches (a group send, an API burst). All or nothing: when their sum would take the
 * balance below zero it throws InsufficientCreditsError naming the whole sum. Keys booked before
 * are skipped. Returns the credits moved.
 */
export async function bookEntries(
  tx: Executor,
  userId: number,
  entries: Omit<LedgerEntry, "userId">[],
): Promise<number> {
  if (entries.length === 0) return 0;
  for (const entry of entries) {
    if (!Number.isInteger(entry.amount) || entry.amount === 0)
      throw new Error("Ledger amount must be a non-zero integer");
  }
  // The statement runs on the caller's connection, so inside its transaction.
  const json = entries.map((entry) => [
    entry.kind,
    entry.amount,
    entry.key,
    entry.note ?? null,
    entry.actorUserId ?? null,
    entry.reason ?? null,
  ]);
  const now = clock.now();
  const booked = await queries.insertEntries.all(userId, now, JSON.stringify(json));
  await countSpent(userId, booked, now);
  const sum = booked.reduce((total, entry) => total + entry.amount, 0);
  if (sum !== 0 && !(await moveBalanceOf(tx, userId, sum))) {
    throw new InsufficientCreditsError(-sum, await getBalance(userId, tx));
  }
  return sum;
}

/** Books one entry in its own transaction. */
export async function book(entry: LedgerEntry): Promise<boolean> {
  return await withTx((tx) => bookEntry(tx, entry));
}

/** The user's cached balance, read through `ex`: pass the caller's transaction to read inside it. */
export async function getBalance(userId: number, ex: Executor = getDb()): Promise<number> {
  const row = await ex.select({ balance: users.creditBalance }).from(users).where(eq(users.id, userId)).get();
  return row?.balance ?? 0;
}

/**
 * The user's balance inside the caller's transaction, the row locked until it ends (on SQLite the
 * writer holds every row): what is decided from it stays true, and the account's next such
 * transaction waits here.
 */
export async function lockBalance(userId: number): Promise<number> {
  return (await queries.balanceForUpdate.get(userId))?.balance ?? 0;
}

/** Throws InsufficientCreditsError unless the balance, read through `ex`, covers `needed`: a check before a send, not a reservation. */
export async function assertBalance(userId: number, needed: number, ex: Executor = getDb()): Promise<void> {
  const balance = await getBalance(userId, ex);
  if (balance < needed) throw new InsufficientCreditsError(needed, balance);
}

/** Sum of the ledger itself: what the cached balance must always equal. */
export async function getLedgerSum(userId: number): Promise<number> {
  const row = await getDb()
    .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .get();
  return row?.total ?? 0;
}

export type TakeBack = { booked: boolean; taken: number; shortfall: number };

/**
 * Takes up to `wanted` credits back inside the caller's transaction (a cancelled, refunded or
 * disputed order): as many as the balance holds, and the rest, already spent, is recorded on the
 * same entry as its shortfall. The balance never goes below zero. When nothing can be taken the
 * entry still exists (amount 0) so the shortfall is on record. A key booked before takes nothing.
 */
export async function takeBack(
  tx: Executor,
  entry: Omit<LedgerEntry, "amount"> & { wanted: number },
): Promise<TakeBack> {
  if (!Number.isInteger(entry.wanted) || entry.wanted <= 0)
    throw new Error("Credits to take back must be a positive integer");
  const now = clock.now();
  // Locked, so no debit moves it between this read and the update below, at any isolation.
  const taken = Math.min(entry.wanted, await lockBalance(entry.userId));
  const shortfall = entry.wanted - taken;
  const inserted = (
    await queries.insertEntry.run(
      entry.userId,
      entry.kind,
      -taken,
      shortfall,
      entry.key,
      entry.note ?? null,
      entry.actorUserId ?? null,
      entry.reason ?? null,
      now,
    )
  ).changes;
  if (inserted === 0) return { booked: false, taken: 0, shortfall: 0 };
  await countSpent(entry.userId, [{ kind: entry.kind, amount: -taken }], now);
  // `taken` is at most the balance locked above: a refusal here is a bug, never a silent difference.
  if (taken > 0 && !(await moveBalanceOf(tx, entry.userId, -taken)))
    throw new Error(`The balance of user ${entry.userId} moved while locked`);
  return { booked: true, taken, shortfall };
}

export type OperatorAdjustment = {
  userId: number;
  actorUserId: number;
  /** Signed: positive adds credits, negative removes them. */
  amount: number;
  reason: string;
  /** The form's idempotency key: a double submit books once. */
  requestKey: string;
};

export type OperatorAdjustmentResult =
  | { status: "booked"; balance: number }
  | { status: "duplicate"; balance: number }
  | { status: "insufficient"; balance: number }
  | { status: "not-found" };

/** An admin adds or removes credits with a reason; a removal never takes the balance below zero. */
export async function adjustCredits(adjustment: OperatorAdjustment): Promise<OperatorAdjustmentResult> {
  try {
    return await withTx(async (tx) => {
      const user = await tx.select({ id: users.id }).from(users).where(eq(users.id, adjustment.userId)).get();
      if (!user) return { status: "not-found" as const };
      const booked = await bookEntry(tx, {
        userId: adjustment.userId,
        kind: "adjustment",
        amount: adjustment.amount,
        key: `operator:${adjustment.requestKey}`,
        note: adjustment.amount > 0 ? "Credits added by an admin" : "Credits removed by an admin",
        actorUserId: adjustment.actorUserId,
        reason: adjustment.reason,
      });
      return {
        status: booked ? ("booked" as const) : ("duplicate" as const),
        balance: await getBalance(adjustment.userId, tx),
      };
    });
  } catch (error) {
    // Caught outside the transaction, so its rollback has removed the refused entry.
    if (error instanceof InsufficientCreditsError) return { status: "insufficient", balance: error.balance };
    throw error;
  }
}

export const LEDGER_PAGE_SIZE = 20;

const actors = alias(users, "actors");

/** One page of the user's ledger, newest first, with the admin behind each operator entry. */
export async function listLedgerEntries(userId: number, requestedPage = 1) {
  const [{ total }] = await getDb()
    .select({ total: count() })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .all();
  const { page, totalPages, offset } = pageWindow(total, requestedPage, LEDGER_PAGE_SIZE);
  const rows = await getDb()
    .select({
      id: creditLedger.id,
      kind: creditLedger.kind,
      amount: creditLedger.amount,
      shortfall: creditLedger.shortfall,
      note: creditLedger.note,
      reason: creditLedger.reason,
      createdAt: creditLedger.createdAt,
      actor: { id: actors.id, fullName: actors.fullName, email: actors.email },
    })
    .from(creditLedger)
    .leftJoin(actors, eq(actors.id, creditLedger.actorUserId))
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.id))
    .limit(LEDGER_PAGE_SIZE)
    .offset(offset)
    .all();
  return { rows, total, page, totalPages };
}
