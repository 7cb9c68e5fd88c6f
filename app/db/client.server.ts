import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { closeSync, openSync } from "node:fs";
import { resolve } from "node:path";
import { getEnv, PRIVATE_FILE } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { countRowsWith, workCounters } from "#app/utils/work-counts.server.ts";

export const databaseFile = () => resolve(getEnv().DATA_DIR, "app.db");

const BUSY_TIMEOUT_MS = 5000;

export type Tx = Parameters<Parameters<BetterSQLite3Database["transaction"]>[0]>[0];

/** Creates `file` empty and private when it is missing; SQLite gives its -wal and -shm files the same mode. */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, "a", PRIVATE_FILE));
}

const COUNTED = Symbol.for("smsgw.counted");

/**
 * Counts every statement this process runs, on any connection, and the commits among them
 * (better-sqlite3's transactions run a prepared COMMIT): once, on the shared prototypes.
 */
function countStatements(sqlite: Database.Database): void {
  const statement = Object.getPrototypeOf(sqlite.prepare("select 1")) as Record<string | symbol, unknown>;
  if (statement[COUNTED]) return;
  statement[COUNTED] = true;
  const counts = workCounters();
  for (const name of ["get", "all", "iterate"]) {
    const method = statement[name] as (...params: unknown[]) => unknown;
    statement[name] = function (this: Database.Statement, ...params: unknown[]) {
      counts.statements += 1;
      return method.apply(this, params);
    };
  }
  const run = statement.run as (...params: unknown[]) => Database.RunResult;
  statement.run = function (this: Database.Statement, ...params: unknown[]) {
    counts.statements += 1;
    if (this.source === "COMMIT") counts.commits += 1;
    return run.apply(this, params);
  };
  const database = Database.prototype as unknown as Record<string, (source: string) => unknown>;
  const exec = database.exec;
  database.exec = function (this: Database.Database, source: string) {
    counts.statements += 1;
    return exec.call(this, source);
  };
}

function open(file: string) {
  createPrivateFile(file);
  const sqlite = new Database(file);
  countStatements(sqlite);
  const totalChanges = sqlite.prepare("select total_changes()").pluck();
  countRowsWith(() => totalChanges.get() as number);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const db = drizzle({ client: sqlite });
  return {
    sqlite,
    db,
    // Made once, not per write as db.transaction() does (about 5 µs each): better-sqlite3's
    // wrapper (BEGIN, COMMIT, ROLLBACK, savepoints when nested) and Drizzle's transaction object,
    // which holds no state of its own transaction.
    transaction: sqlite.transaction((write: (tx: Tx) => unknown, tx: Tx) => write(tx)),
    tx: db.transaction((tx) => tx),
    noWait: sqlite.prepare(`pragma busy_timeout = 0`),
    wait: sqlite.prepare(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`),
  };
}

/** Work to run once a transaction has committed: a hook, or a batch of items handed over at once. */
type AfterCommit = (() => void) | { flush: (items: never[]) => void; items: unknown[] };

/** What must be one per process, not one per copy of this module (the web process loads two, decision 122). */
type DbState = {
  connection?: ReturnType<typeof open>;
  /** Write transactions begun by this process: tells a per-transaction cache which one filled it. */
  transactionsBegun: number;
  /** Write transactions (or nested ones) rolled back after their work began. */
  transactionsRolledBack: number;
  /** The after-commit work of each running transaction, outermost first (savepoints nest). */
  pending: AfterCommit[][];
};

const STATE = Symbol.for("smsgw.db");
const shared = ((globalThis as { [STATE]?: DbState })[STATE] ??= {
  transactionsBegun: 0,
  transactionsRolledBack: 0,
  pending: [],
});

const connected = () => (shared.connection ??= open(databaseFile()));

/** The Drizzle database on the one connection, opened on first use (DATA_DIR/app.db). */
export function getDb() {
  return connected().db;
}

/** The same connection without Drizzle: prepared statements on hot paths, pragmas. */
export function getSqlite(): Database.Database {
  return connected().sqlite;
}

/** Closes the connection at shutdown; a later getDb() would open it again. */
export function closeDb(): void {
  shared.connection?.sqlite.close();
  shared.connection = undefined;
}

export type Db = ReturnType<typeof getDb>;
/** Runs queries inside the caller's open transaction: a Drizzle transaction, or the database under a raw one. */
export type Executor = Tx | Db;

/**
 * Every write transaction goes through here. IMMEDIATE takes the write lock at BEGIN, so two
 * writers never both read and then fail to upgrade; queries in `write` run inside it. Work given
 * to afterCommit() inside runs once the outermost transaction has committed, and never after a
 * rollback (of it, or of the savepoint of a nested call).
 */
export function inTransaction<T>(write: (tx: Tx) => T): T {
  const { transaction, tx } = connected();
  const { pending } = shared;
  const work: AfterCommit[] = [];
  shared.transactionsBegun += 1;
  pending.push(work);
  let result: T;
  try {
    result = transaction.immediate(write, tx) as T;
  } catch (error) {
    pending.pop();
    // SQLITE_BUSY: refused at BEGIN (the write lock is held from there), nothing ran.
    if ((error as { code?: string }).code !== "SQLITE_BUSY") shared.transactionsRolledBack += 1;
    throw error;
  }
  pending.pop();
  if (work.length > 0) {
    const outer = pending.at(-1);
    if (outer) for (const entry of work) handOver(outer, entry);
    else for (const entry of work) runAfterCommit(entry);
  }
  return result;
}

/** Adds a released savepoint's work to its parent's: a batch joins the parent's batch of the same flush. */
function handOver(outer: AfterCommit[], entry: AfterCommit): void {
  const same = typeof entry === "function" ? undefined : batchOf(outer, entry.flush);
  if (!same) outer.push(entry);
  else if (typeof entry !== "function") same.items.push(...entry.items);
}

function batchOf(work: AfterCommit[], flush: (items: never[]) => void) {
  for (const entry of work) if (typeof entry !== "function" && entry.flush === flush) return entry;
}

/** Runs one piece of after-commit work; one that throws is logged, and the transaction stays committed. */
function runAfterCommit(entry: AfterCommit): void {
  try {
    if (typeof entry === "function") entry();
    else entry.flush(entry.items as never[]);
  } catch (error) {
    log(
      "error",
      "db",
      "after-commit work failed; the transaction did commit (the reconcilers redo what it missed)",
      error,
    );
  }
}

/**
 * Runs `hook` once the running transaction has committed: after the outermost COMMIT, in the order
 * given, or never when it (or the savepoint it was given in) rolls back. Outside a transaction it
 * runs at once. A hook that throws is logged and the others still run.
 */
export function afterCommit(hook: () => void): void {
  const work = shared.pending.at(-1);
  if (work) work.push(hook);
  else runAfterCommit(hook);
}

/**
 * Collects items written in the running transaction and hands them to `flush` in one call once it
 * has committed (as afterCommit, at the place of the first ones): one job per transaction rather
 * than one per write. Outside a transaction, each call's items are flushed at once.
 */
export function afterCommitBatch<T>(flush: (items: T[]) => void): (items: T[]) => void {
  return (items) => {
    const work = shared.pending.at(-1);
    if (!work) return runAfterCommit({ flush, items });
    const batch = batchOf(work, flush);
    if (batch) batch.items.push(...items);
    else work.push({ flush, items: [...items] });
  };
}

/**
 * How many write transactions this process has rolled back: a cache filled inside one may hold
 * what never was (an id SQLite gives again), so one that outlives its transaction checks this.
 */
export function rolledBackTransactions(): number {
  return shared.transactionsRolledBack;
}

/**
 * The running write transaction's number (a nested one gets its own), or null outside one. What
 * it reads stays true until it commits, since it holds the write lock: a cache keyed by it is exact.
 */
export function runningTransaction(): number | null {
  return connected().sqlite.inTransaction ? shared.transactionsBegun : null;
}

/**
 * Runs a write transaction without sleeping in SQLite's busy handler when another process holds
 * the write lock: that handler sleeps whole milliseconds with this process's event loop stopped.
 * Instead this yields and tries again, so the process keeps serving meanwhile. For hot paths
 * whose callers can wait; after `patienceMs` (BUSY_TIMEOUT_MS) it gives up like the handler would.
 */
export async function inTransactionWithoutStalling<T>(
  write: (tx: Tx) => T,
  { patienceMs = BUSY_TIMEOUT_MS } = {},
): Promise<T> {
  const { noWait, wait } = connected();
  const deadline = Date.now() + patienceMs;
  for (let tries = 0; ; tries++) {
    noWait.get();
    try {
      return inTransaction(write);
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
      workCounters().busyRetries += 1;
    } finally {
      wait.get();
    }
    await new Promise((resume) => (tries < 20 ? setImmediate(resume) : setTimeout(resume, 1)));
  }
}
