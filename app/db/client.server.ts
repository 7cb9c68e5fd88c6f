import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { closeSync, openSync } from "node:fs";
import { resolve } from "node:path";
import { getEnv, PRIVATE_FILE } from "#app/utils/env.server.ts";
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

let connection: ReturnType<typeof open> | undefined;
const connected = () => (connection ??= open(databaseFile()));

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
  connection?.sqlite.close();
  connection = undefined;
}

export type Db = ReturnType<typeof getDb>;
/** Runs queries inside the caller's open transaction: a Drizzle transaction, or the database under a raw one. */
export type Executor = Tx | Db;

// Write transactions begun by this process: tells a per-transaction cache which one filled it.
let transactionsBegun = 0;

/**
 * Every write transaction goes through here. IMMEDIATE takes the write lock at BEGIN, so two
 * writers never both read and then fail to upgrade; queries in `write` run inside it.
 */
export function inTransaction<T>(write: (tx: Tx) => T): T {
  const { transaction, tx } = connected();
  transactionsBegun += 1;
  try {
    return transaction.immediate(write, tx) as T;
  } catch (error) {
    // SQLITE_BUSY: refused at BEGIN (the write lock is held from there), nothing ran.
    if ((error as { code?: string }).code !== "SQLITE_BUSY") transactionsRolledBack += 1;
    throw error;
  }
}

// Write transactions (or nested ones) rolled back after their work began.
let transactionsRolledBack = 0;

/**
 * How many write transactions this process has rolled back: a cache filled inside one may hold
 * what never was (an id SQLite gives again), so one that outlives its transaction checks this.
 */
export function rolledBackTransactions(): number {
  return transactionsRolledBack;
}

/**
 * The running write transaction's number (a nested one gets its own), or null outside one. What
 * it reads stays true until it commits, since it holds the write lock: a cache keyed by it is exact.
 */
export function runningTransaction(): number | null {
  return connected().sqlite.inTransaction ? transactionsBegun : null;
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
