import { eq, sql } from "drizzle-orm";
import { db, type Executor } from "../../db/client.server.ts";
import { statement } from "../../db/statements.server.ts";
import { creditLedger, users } from "../../db/schema/core.ts";
import { clock } from "../../utils/clock.server.ts";

export type LedgerKind = "grant" | "debit" | "refund" | "adjustment";

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
};

/**
 * Books one entry inside the caller's transaction and moves the cached balance with it.
 * Returns false when the key was booked before. Throws InsufficientCreditsError (rolling the
 * caller's transaction back) when a negative amount would take the balance below zero.
 */
export function bookEntry(tx: Executor, entry: LedgerEntry): boolean {
  const { userId, ...rest } = entry;
  // A single entry moves exactly its (non-zero) amount when booked, and nothing when booked before.
  return bookEntries(tx, userId, [rest]) !== 0;
}

const insertEntry = statement(
  "insert into credit_ledger (user_id, kind, amount, key, note, created_at) values (?, ?, ?, ?, ?, ?) on conflict(key) do nothing",
);
const moveBalance = statement("update users set credit_balance = credit_balance + ? where id = ? and credit_balance >= ?");

/**
 * Books many entries of one user inside the caller's transaction with one balance update, for
 * batches (a group send, an API burst). All or nothing: when their sum would take the balance below
 * zero it throws InsufficientCreditsError naming the whole sum. Keys booked before are skipped.
 * Returns the credits moved.
 */
export function bookEntries(tx: Executor, userId: number, entries: Omit<LedgerEntry, "userId">[]): number {
  const now = clock.now();
  let sum = 0;
  for (const entry of entries) {
    if (!Number.isInteger(entry.amount) || entry.amount === 0) throw new Error("Ledger amount must be a non-zero integer");
    // The statements run on the caller's connection, so inside its transaction.
    if (insertEntry().run(userId, entry.kind, entry.amount, entry.key, entry.note ?? null, now).changes === 1) sum += entry.amount;
  }
  if (sum !== 0 && moveBalance().run(sum, userId, Math.max(0, -sum)).changes === 0) {
    throw new InsufficientCreditsError(-sum, getBalance(userId, tx));
  }
  return sum;
}

/** Books one entry in its own transaction. */
export function book(entry: LedgerEntry): boolean {
  return db.transaction((tx) => bookEntry(tx, entry), { behavior: "immediate" });
}

/** The user's cached balance, read through `ex`: pass the caller's transaction to read inside it. */
export function getBalance(userId: number, ex: Executor = db): number {
  const row = ex.select({ balance: users.creditBalance }).from(users).where(eq(users.id, userId)).get();
  return row?.balance ?? 0;
}

/** Throws InsufficientCreditsError unless the balance, read through `ex`, covers `needed`: a check before a send, not a reservation. */
export function assertBalance(userId: number, needed: number, ex: Executor = db): void {
  const balance = getBalance(userId, ex);
  if (balance < needed) throw new InsufficientCreditsError(needed, balance);
}

/** Sum of the ledger itself: what the cached balance must always equal. */
export function getLedgerSum(userId: number): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .get();
  return row?.total ?? 0;
}
