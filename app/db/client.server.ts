import Database from "better-sqlite3";
import { fillPlaceholders, type Query } from "drizzle-orm";
import { BetterSQLiteSession, PreparedQuery } from "drizzle-orm/better-sqlite3/session";
import { BaseSQLiteDatabase, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as drizzleUtils from "drizzle-orm/utils";
import { AsyncLocalStorage } from "node:async_hooks";
import { closeSync, openSync } from "node:fs";
import { resolve } from "node:path";
import {
  connectionLost,
  neverSent,
  executorOn,
  mayRetry,
  openPostgres,
  type PostgresEngine,
  query,
} from "#app/db/postgres/engine.server.ts";
import type { PoolClient } from "#app/db/postgres/pool.server.ts";
import { getEnv, PRIVATE_FILE } from "#app/utils/env.server.ts";
import { log } from "#app/utils/log.server.ts";
import { countRowsWith, workCounters } from "#app/utils/work-counts.server.ts";

export const databaseFile = () => resolve(getEnv().DATA_DIR, "app.db");

const BUSY_TIMEOUT_MS = 5000;

/** Creates `file` empty and private when it is missing; SQLite gives its -wal and -shm files the same mode. */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, "a", PRIVATE_FILE));
}

const COUNTED = Symbol.for("smsgw.counted");

/**
 * Counts every statement this process runs, on any connection, and the commits among them: once,
 * on the shared prototypes.
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

/** What a write statement reports: rows changed, and the last inserted rowid. */
export type RunResult = Database.RunResult;

/**
 * The one way the domain reaches the database (decision 123): Drizzle's query builder whose every
 * terminal (`await q`, `.all()`, `.get()`, `.run()`, `.values()`) is a promise. On SQLite a
 * statement runs once this async chain may use the connection (see `withTx`), so it never runs
 * inside another chain's transaction.
 */
export type Executor = BaseSQLiteDatabase<"async", RunResult>;
/** The executor inside `withTx`: the same interface (SQLite has one connection; the chain is the transaction). */
export type Tx = Executor;
export type Db = Executor;

/** Work to run once a transaction has committed: a hook, or a batch of items handed over at once. */
type AfterCommit = (() => void) | { flush: (items: never[]) => void; items: unknown[] };

/** One transaction of an async chain: the outermost, or a savepoint inside it. */
type Frame = {
  /** The outermost transaction: the lock's holder while it runs. */
  root: object;
  /** Its number among the write transactions this process began (a nested one gets its own). */
  number: number;
  /** After-commit work given inside it. */
  work: AfterCommit[];
  /** The nested transaction running inside it now (one at a time). */
  child?: Frame;
  /** On PostgreSQL: whether it took its turn shared (TxOptions.sharedTurn), so it locks what it touches itself. */
  sharedTurn?: boolean;
  /** On PostgreSQL: the transaction's connection, its executor, and whether it still runs. */
  postgres?: { client: PoolClient; db: Executor; open: boolean };
};

/** What must be one per process, not one per copy of this module (the web process loads two, decision 122). */
type DbState = {
  connection?: ReturnType<typeof open>;
  /** With DATABASE_URL: PostgreSQL's pool, instead of the SQLite connection. */
  postgres?: PostgresEngine;
  /** Which transaction (if any) the running async chain is inside. */
  context: AsyncLocalStorage<Frame>;
  /** The connection's lock: held by a transaction's chain, or for one statement's turn. */
  lock: { held: boolean; holder: object | undefined; waiting: (() => void)[] };
  /** Write transactions begun by this process: tells a per-transaction cache which one filled it. */
  transactionsBegun: number;
  /** Write transactions (or nested ones) rolled back after their work began. */
  transactionsRolledBack: number;
  /** Prepared statements by SQL text, most recently used last. */
  prepared: Map<string, Database.Statement>;
};

const STATE = Symbol.for("smsgw.db");
const shared: DbState = ((globalThis as { [STATE]?: DbState })[STATE] ??= {
  context: new AsyncLocalStorage<Frame>(),
  lock: { held: false, holder: undefined, waiting: [] },
  transactionsBegun: 0,
  transactionsRolledBack: 0,
  prepared: new Map(),
});

/** Enough for every fixed statement; texts built per call (an IN list's length) come and go. */
const PREPARED_KEPT = 1000;

/** The connection's prepared statement for `source`, prepared once while it stays among the recently used. */
export function prepared(source: string): Database.Statement {
  const cache = shared.prepared;
  let statement = cache.get(source);
  if (statement) {
    if (cache.size > PREPARED_KEPT / 2) {
      cache.delete(source);
      cache.set(source, statement);
    }
    return statement;
  }
  statement = getSqlite().prepare(source);
  cache.set(source, statement);
  if (cache.size > PREPARED_KEPT) cache.delete(cache.keys().next().value as string);
  return statement;
}

/** True when the running chain may use the connection now: nobody holds it, or its transaction does. */
function mayRunNow(): boolean {
  const { lock } = shared;
  if (!lock.held) return true;
  const frame = shared.context.getStore();
  return frame !== undefined && frame.root === lock.holder;
}

/** Takes the connection's lock when nobody holds it (or waits in line for it). */
function takeIfFree(): boolean {
  if (shared.lock.held) return false;
  shared.lock.held = true;
  return true;
}

/** Takes the connection's lock, waiting in line (first come, first served) while another chain holds it. */
function acquire(): Promise<void> | undefined {
  if (takeIfFree()) return undefined;
  return new Promise((granted) => shared.lock.waiting.push(granted));
}

function release(): void {
  const { lock } = shared;
  lock.holder = undefined;
  const next = lock.waiting.shift();
  if (next) next();
  else lock.held = false;
}

/**
 * Runs one statement's synchronous work when this chain may use the connection: at once when it
 * is free or this chain's transaction holds it, else after the transactions ahead in line.
 */
export function onConnection<T>(work: () => T): Promise<T> {
  if (mayRunNow()) {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  return (async () => {
    await acquire();
    try {
      return work();
    } finally {
      release();
    }
  })();
}

/** Drizzle maps a row of values to its selected fields with this (exported, though not in its types). */
const { mapResultRow } = drizzleUtils as unknown as {
  mapResultRow: (fields: unknown, row: unknown[], joinsNotNullableMap: unknown) => unknown;
};

/** The parts of Drizzle's better-sqlite3 prepared query that AsyncQuery reads. */
type QueryParts = {
  stmt: Database.Statement;
  query: Query;
  fields?: unknown;
  customResultMapper?: (rows: unknown[][]) => unknown;
  joinsNotNullableMap?: unknown;
  mode: string;
};
const SyncQuery = PreparedQuery as unknown as new (...args: unknown[]) => QueryParts;

/** Drizzle's better-sqlite3 query, with each terminal a promise that waits for its turn on the connection. */
class AsyncQuery extends SyncQuery {
  constructor(...args: unknown[]) {
    super(...args);
    this.mode = "async";
  }

  private params(placeholderValues?: Record<string, unknown>): unknown[] {
    return fillPlaceholders(this.query.params, placeholderValues ?? {});
  }

  private mapped(rows: unknown[][]): unknown[] {
    const { fields, joinsNotNullableMap, customResultMapper } = this;
    if (customResultMapper) return customResultMapper(rows) as unknown[];
    return rows.map((row) => mapResultRow(fields, row, joinsNotNullableMap));
  }

  run(placeholderValues?: Record<string, unknown>) {
    const params = this.params(placeholderValues);
    return onConnection(() => this.stmt.run(...params));
  }

  all(placeholderValues?: Record<string, unknown>) {
    const params = this.params(placeholderValues);
    const { stmt } = this;
    if (!this.fields && !this.customResultMapper) return onConnection(() => stmt.raw(false).all(...params));
    return onConnection(() => this.mapped(stmt.raw(true).all(...params) as unknown[][]));
  }

  get(placeholderValues?: Record<string, unknown>) {
    const params = this.params(placeholderValues);
    const { stmt } = this;
    if (!this.fields && !this.customResultMapper) return onConnection(() => stmt.raw(false).get(...params));
    return onConnection(() => {
      const row = stmt.raw(true).get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : this.mapped([row])[0];
    });
  }

  values(placeholderValues?: Record<string, unknown>) {
    const params = this.params(placeholderValues);
    return onConnection(() => this.stmt.raw(true).all(...params));
  }
}

type SessionParts = { logger: unknown; cache: unknown };
const SyncSession = BetterSQLiteSession as unknown as new (...args: unknown[]) => SessionParts;

/** Drizzle's better-sqlite3 session, preparing each text once and answering with AsyncQuery. */
class AsyncSession extends SyncSession {
  prepareQuery(query: Query, ...rest: unknown[]) {
    const [fields, executeMethod, isResponseInArrayMode, customResultMapper, queryMetadata, cacheConfig] = rest;
    return new AsyncQuery(
      prepared(query.sql),
      query,
      this.logger,
      this.cache,
      queryMetadata,
      cacheConfig,
      fields,
      executeMethod,
      isResponseInArrayMode,
      customResultMapper,
    );
  }

  transaction(): never {
    throw new Error("use withTx() from app/db/client.server.ts: it holds the connection's lock");
  }
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
  const dialect = new SQLiteAsyncDialect();
  const session = new AsyncSession(sqlite, dialect, undefined);
  const db = new BaseSQLiteDatabase("async", dialect, session as never, undefined) as unknown as Executor;
  return {
    sqlite,
    db,
    begin: sqlite.prepare("BEGIN IMMEDIATE"),
    commit: sqlite.prepare("COMMIT"),
    rollback: sqlite.prepare("ROLLBACK"),
    noWait: sqlite.prepare(`pragma busy_timeout = 0`),
    wait: sqlite.prepare(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`),
  };
}

const connected = () => (shared.connection ??= open(databaseFile()));

/** True when DATABASE_URL names a PostgreSQL database: the engine for several hosts (decision 127). */
export const usesPostgres = () => getEnv().DATABASE_URL !== undefined;

const postgres = () => (shared.postgres ??= openPostgres(getEnv().DATABASE_URL!, getEnv().DATABASE_POOL_SIZE));

/**
 * The executor: on SQLite the one connection's, opened on first use (DATA_DIR/app.db); on
 * PostgreSQL the running transaction's connection, or the pool outside one.
 */
export function getDb(): Executor {
  if (!usesPostgres()) return connected().db;
  return runningFrame()?.postgres?.db ?? (postgres().db as Executor);
}

/** Runs one raw statement on PostgreSQL: on the running transaction's connection, or the pool (`named`: see query). */
export function onPostgres(text: string, params: unknown[], named = false) {
  return query(runningFrame()?.postgres?.client ?? postgres().pool, text, params, named);
}

/** The raw connection, for app/db alone: pragmas, migrations, backups. */
export function getSqlite(): Database.Database {
  // On PostgreSQL it would open DATA_DIR's unused SQLite file, and whatever read it would read nothing real.
  if (usesPostgres()) throw new Error("getSqlite() with DATABASE_URL set: the database is PostgreSQL");
  return connected().sqlite;
}

/** Closes the connection (or the pool) at shutdown; a later getDb() would open it again. */
export async function closeDb(): Promise<void> {
  shared.connection?.sqlite.close();
  shared.connection = undefined;
  shared.prepared.clear();
  const engine = shared.postgres;
  shared.postgres = undefined;
  await engine?.pool.end();
}

/** The transaction the running chain is inside, if it still runs. */
function runningFrame(): Frame | undefined {
  const frame = shared.context.getStore();
  if (frame === undefined) return undefined;
  if (frame.postgres) return frame.postgres.open ? frame : undefined;
  return frame.root === shared.lock.holder ? frame : undefined;
}

type TxOptions = {
  /**
   * When another process holds the write lock, yield and try again instead of sleeping in SQLite's
   * busy handler (which stops this process's event loop for whole milliseconds); give up after
   * `patienceMs` like the handler would. For hot paths whose callers can wait.
   */
  withoutStalling?: boolean;
  patienceMs?: number;
  /**
   * PostgreSQL only: READ COMMITTED instead of SERIALIZABLE, for a hot transaction whose every
   * write is a guarded single-row update, an insert-on-conflict or an append, after locking the
   * rows it decides on (decision 131). Many at once for one account then wait on its rows in turn
   * instead of refusing each other.
   */
  readCommitted?: boolean;
  /**
   * PostgreSQL only: READ COMMITTED, after waiting for this fleet-wide turn (a transaction-scoped
   * advisory lock, e.g. MESSAGE_STATE_TURN): the transactions of one turn run one at a time, each
   * seeing what the one before it committed, as SQLite's one writer ran them (decision 131).
   */
  turn?: number;
  /**
   * PostgreSQL only: a COMMIT sent and then cut off (the connection lost before its answer) is looked
   * up once the server answers (pg_xact_status of the transaction's id, asked for with BEGIN): committed,
   * it is a success; rolled back, the transaction runs again. For one whose input exists only in
   * memory (the SMSC's answers, a request's messages), which the caller could not redo or tell about
   * (decision 146). Without it the error reaches the caller.
   */
  lookUpCutOffCommit?: boolean;
  /**
   * With `turn`: take it shared, beside the other shared holders; an exclusive holder still runs
   * alone. For a transaction that locks what it touches itself (lockMessageStates), so only those that
   * touch the same messages wait for each other (decision 143).
   */
  sharedTurn?: boolean;
};

/** The turn of every transaction that moves a message's status, parts or receipts (decision 131): "smsm" in ASCII. */
export const MESSAGE_STATE_TURN = 0x736d736d;

/**
 * Every write transaction goes through here. It takes the connection's lock (statements of other
 * async chains wait for it, so none runs inside this transaction) and SQLite's write lock at BEGIN
 * IMMEDIATE, so two writers never both read and then fail to upgrade. Called inside a transaction
 * it runs as a savepoint of it. Work given to afterCommit() inside runs once the outermost
 * transaction has committed, and never after a rollback (of it, or of the savepoint of a nested call).
 * `write` should await only the database: the connection is this chain's until it settles.
 */
export async function withTx<T>(write: (tx: Tx) => Promise<T>, options: TxOptions = {}): Promise<T> {
  const outer = runningFrame();
  if (outer) return nested(outer, write);
  if (usesPostgres()) return withPostgresTx(write, options);
  const { db, commit, rollback } = connected();
  const { withoutStalling = false, patienceMs = BUSY_TIMEOUT_MS } = options;
  const deadline = Date.now() + patienceMs;
  // An idle connection begins at once, without a turn of the event loop.
  const tookLock = takeIfFree();
  if (!(tookLock && tryBegin(withoutStalling, deadline)))
    await begunWhenFree(withoutStalling, deadline, tookLock ? 1 : 0);
  const root = {};
  const frame: Frame = { root, number: ++shared.transactionsBegun, work: [] };
  shared.lock.holder = root;
  let result: T;
  try {
    result = await shared.context.run(frame, () => write(db));
    commit.run();
  } catch (error) {
    if (getSqlite().inTransaction) rollback.run();
    shared.transactionsRolledBack += 1;
    throw error;
  } finally {
    release();
  }
  for (const entry of frame.work) runAfterCommit(entry);
  return result;
}

/**
 * BEGIN IMMEDIATE with the connection's lock held: true once begun, false (the lock given back) when
 * another process holds the write lock and `withoutStalling` says to yield and try again.
 */
function tryBegin(withoutStalling: boolean, deadline: number): boolean {
  const { begin, noWait, wait } = connected();
  if (withoutStalling) noWait.get();
  try {
    begin.run();
    return true;
  } catch (error) {
    release();
    if (!withoutStalling || (error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
    workCounters().busyRetries += 1;
    return false;
  } finally {
    if (withoutStalling) wait.get();
  }
}

/**
 * Waits in line for the connection's lock, then begins; yields between tries while another process
 * writes (`tries`: those already made, so a refused first try pauses before the next).
 */
async function begunWhenFree(withoutStalling: boolean, deadline: number, tries: number): Promise<void> {
  for (; ; tries++) {
    if (tries > 0) await new Promise((resume) => (tries <= 20 ? setImmediate(resume) : setTimeout(resume, 1)));
    await acquire();
    if (tryBegin(withoutStalling, deadline)) return;
  }
}

/**
 * PostgreSQL's withTx: SERIALIZABLE, so every transaction keeps the guarantee SQLite's one writer
 * gave the domain, run again (up to a few times) when PostgreSQL refuses one for overlapping another.
 * A READ COMMITTED one (see TxOptions) runs again after a deadlock, or when a row it points to was
 * deleted while it ran. Any runs again while the server restarts (its connection ended before COMMIT,
 * so nothing was written; one ended during COMMIT may have committed and reaches the caller).
 */
async function withPostgresTx<T>(
  write: (tx: Tx) => Promise<T>,
  { readCommitted, turn, sharedTurn = false, lookUpCutOffCommit = false }: TxOptions,
): Promise<T> {
  const committedReads = readCommitted === true || turn !== undefined;
  const lostUntil = Date.now() + RECONNECT_PATIENCE_MS;
  for (let attempt = 1; ; attempt++) {
    let committing = false;
    let client: PoolClient;
    try {
      client = await postgres().pool.connect();
    } catch (error) {
      if (!connectionLost(error) || Date.now() > lostUntil) throw error;
      await new Promise((resume) => setTimeout(resume, RECONNECT_PAUSE_MS));
      attempt -= 1;
      continue;
    }
    const state = { client, db: executorOn(client) as Executor, open: true };
    const frame: Frame = {
      root: state,
      number: ++shared.transactionsBegun,
      work: [],
      postgres: state,
      sharedTurn: turn !== undefined && sharedTurn,
    };
    let broken = false;
    let result: T;
    let id: string | undefined;
    const committed = () => {
      workCounters().commits += 1;
      for (const entry of frame.work) runAfterCommit(entry);
      return result;
    };
    try {
      const begun = await query(client, beginText(committedReads, turn, sharedTurn, lookUpCutOffCommit), []);
      if (lookUpCutOffCommit) id = (begun.rows[0] as { id: string }).id;
      result = await shared.context.run(frame, () => write(state.db));
      committing = true;
      await query(client, "COMMIT", []);
      state.open = false;
      client.release();
      return committed();
    } catch (error) {
      state.open = false;
      shared.transactionsRolledBack += 1;
      await client.query("ROLLBACK").catch(() => (broken = true));
      client.release(broken);
      // The server went away before COMMIT was sent (a restart): nothing was written, run it again. A
      // COMMIT node-postgres refused to send (it had already heard the server end the session, often in
      // the same packet as the last statement's answer) is the same case.
      if ((!committing || neverSent(error)) && connectionLost(error) && Date.now() <= lostUntil) {
        await new Promise((resume) => setTimeout(resume, RECONNECT_PAUSE_MS));
        attempt -= 1;
        continue;
      }
      // COMMIT was sent and its answer lost: what the server did with it, once it answers again.
      const outcome = id !== undefined && connectionLost(error) ? await commitOutcome(id, lostUntil) : null;
      if (outcome === "committed") return committed();
      if (outcome === "aborted") {
        attempt -= 1;
        continue;
      }
      if (!mayRetry(error, committedReads) || attempt >= SERIALIZATION_ATTEMPTS) throw error;
      workCounters().busyRetries += 1;
      await new Promise((resume) => setTimeout(resume, Math.random() * 2 ** attempt));
    }
  }
}

/**
 * BEGIN, the turn's lock and the transaction's id (for lookUpCutOffCommit) in the same round trip (a
 * turn is one of the code's integer constants).
 */
function beginText(committedReads: boolean, turn: number | undefined, shared: boolean, withId: boolean): string {
  const statements = [`BEGIN ISOLATION LEVEL ${committedReads ? "READ COMMITTED" : "SERIALIZABLE"}`];
  if (turn !== undefined) {
    if (!Number.isSafeInteger(turn)) throw new Error(`a transaction's turn is an integer, not ${turn}`);
    statements.push(`select pg_advisory_xact_lock${shared ? "_shared" : ""}(${turn})`);
  }
  if (withId) statements.push("select pg_current_xact_id()::text as id");
  return statements.join("; ");
}

/**
 * Whether the transaction `id` committed or was rolled back (aborted), asked again every pause while
 * the server is away or the transaction still ends, until `until`; null when it could not be told.
 */
async function commitOutcome(id: string, until: number): Promise<"committed" | "aborted" | null> {
  for (;;) {
    try {
      const { rows } = await query(postgres().pool, "select pg_xact_status($1::xid8) as status", [id]);
      const { status } = rows[0] as { status: string | null };
      if (status === "committed" || status === "aborted") return status;
      if (status === null) return null;
    } catch (error) {
      if (!connectionLost(error)) return null;
    }
    if (Date.now() > until) return null;
    await new Promise((resume) => setTimeout(resume, RECONNECT_PAUSE_MS));
  }
}

/** How long a transaction waits for a restarting server (reconnecting every pause) before its error reaches the caller. */
const RECONNECT_PATIENCE_MS = 30_000;
const RECONNECT_PAUSE_MS = 200;

/** How often a transaction refused for overlapping another runs before its error reaches the caller. */
const SERIALIZATION_ATTEMPTS = 10;

/** Runs one statement of a transaction's own bookkeeping (savepoints) on its connection. */
async function execInFrame(frame: Frame, text: string): Promise<void> {
  if (frame.postgres) await query(frame.postgres.client, text, []);
  else getSqlite().exec(text);
}

/** A transaction inside a running one: a savepoint, one at a time per transaction. */
async function nested<T>(outer: Frame, write: (tx: Tx) => Promise<T>): Promise<T> {
  if (outer.child) throw new Error("nested transactions of one transaction must run one after another, not at once");
  const frame: Frame = { ...outer, child: undefined, number: ++shared.transactionsBegun, work: [] };
  const name = `sp${frame.number}`;
  outer.child = frame;
  try {
    await execInFrame(frame, `SAVEPOINT ${name}`);
    let result: T;
    try {
      result = await shared.context.run(frame, () => write(getDb()));
    } catch (error) {
      await execInFrame(frame, `ROLLBACK TO SAVEPOINT ${name}`);
      await execInFrame(frame, `RELEASE SAVEPOINT ${name}`);
      shared.transactionsRolledBack += 1;
      throw error;
    }
    await execInFrame(frame, `RELEASE SAVEPOINT ${name}`);
    for (const entry of frame.work) handOver(outer.work, entry);
    return result;
  } finally {
    outer.child = undefined;
  }
}

/**
 * Runs `work` holding the connection in one read transaction: what it reads is one state of the
 * database, and no other chain's transaction runs meanwhile. Inside a transaction it just runs.
 */
export async function read<T>(work: (db: Executor) => Promise<T>): Promise<T> {
  if (runningFrame()) return work(getDb());
  if (usesPostgres()) return readOnPostgres(work);
  const { db, sqlite } = connected();
  await acquire();
  const root = {};
  shared.lock.holder = root;
  try {
    sqlite.exec("BEGIN");
    try {
      return await shared.context.run({ root, number: 0, work: [] }, () => work(db));
    } finally {
      sqlite.exec("COMMIT");
    }
  } finally {
    release();
  }
}

/** read() on PostgreSQL: one snapshot (REPEATABLE READ), read only, on one connection. */
async function readOnPostgres<T>(work: (db: Executor) => Promise<T>): Promise<T> {
  const client = await postgres().pool.connect();
  const state = { client, db: executorOn(client) as Executor, open: true };
  try {
    await query(client, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", []);
    try {
      return await shared.context.run({ root: state, number: 0, work: [], postgres: state }, () => work(state.db));
    } finally {
      state.open = false;
      await query(client, "COMMIT", []);
    }
  } finally {
    client.release();
  }
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
  const frame = runningFrame();
  if (frame) frame.work.push(hook);
  else runAfterCommit(hook);
}

/**
 * Collects items written in the running transaction and hands them to `flush` in one call once it
 * has committed (as afterCommit, at the place of the first ones): one job per transaction rather
 * than one per write. Outside a transaction, each call's items are flushed at once.
 */
export function afterCommitBatch<T>(flush: (items: T[]) => void): (items: T[]) => void {
  return (items) => {
    const frame = runningFrame();
    if (!frame) return runAfterCommit({ flush, items });
    const batch = batchOf(frame.work, flush);
    if (batch) batch.items.push(...items);
    else frame.work.push({ flush, items: [...items] });
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
  return runningFrame()?.number ?? null;
}

/** Whether the running transaction took its turn shared: it must lock the messages it moves (lockMessageStates). */
export function inSharedTurn(): boolean {
  return runningFrame()?.sharedTurn === true;
}

/** withTx() for hot paths whose callers can wait: it yields instead of stalling the process while another holds the write lock. */
export function withTxWithoutStalling<T>(
  write: (tx: Tx) => Promise<T>,
  options: Omit<TxOptions, "withoutStalling"> = {},
): Promise<T> {
  return withTx(write, { ...options, withoutStalling: true });
}
