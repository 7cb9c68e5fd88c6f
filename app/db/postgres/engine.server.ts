// The PostgreSQL engine behind the one executor (decision 127): Drizzle's node-postgres driver, taught
// to take the SQLite tables the domain names (each becomes its derived twin) and to answer the SQLite
// terminals the domain awaits (`.all()`, `.get()`, `.run()`, `.values()`, `changes`).
import { createHash } from "node:crypto";
import { is, Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { NodePgPreparedQuery } from "drizzle-orm/node-postgres/session";
import {
  alias,
  PgDatabase,
  PgDeleteBase,
  PgInsertBase,
  PgSelectBase,
  PgSelectBuilder,
  PgSelectQueryBuilderBase,
  PgUpdateBase,
} from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { openPool, type Pool, type PoolClient } from "#app/db/postgres/pool.server.ts";
import { postgresTables } from "#app/db/postgres/schema.server.ts";
import { workCounters } from "#app/utils/work-counts.server.ts";

/** What a write reports on both engines: rows changed (PostgreSQL has no rowid to give back). */
export type PostgresRunResult = { changes: number; lastInsertRowid: number | bigint };

type AnyTable = Record<string | symbol, unknown>;
const NAME = (Table as unknown as { Symbol: { Name: symbol; OriginalName: symbol } }).Symbol;

const twinsByName = new Map<string, AnyTable>(
  Object.values(postgresTables).map((table) => [(table as unknown as AnyTable)[NAME.Name] as string, table as never]),
);
const aliases = new Map<string, AnyTable>();

/** The PostgreSQL twin of a SQLite table (or of an alias of one); anything else as it is. */
export function twinOf<T>(source: T): T {
  if (!is(source, SQLiteTable)) return source;
  const table = source as unknown as AnyTable;
  const original = table[NAME.OriginalName] as string;
  const name = table[NAME.Name] as string;
  const twin = twinsByName.get(original);
  if (!twin) throw new Error(`no PostgreSQL table for ${original}`);
  if (name === original) return twin as T;
  const key = `${original} ${name}`;
  let aliased = aliases.get(key);
  if (!aliased) aliases.set(key, (aliased = alias(twin as never, name) as unknown as AnyTable));
  return aliased as T;
}

type Rows = unknown[] | { rows: unknown[]; rowCount: number | null };
const rowsOf = (result: Rows) => (Array.isArray(result) ? result : result.rows);
const runResultOf = (result: Rows): PostgresRunResult => ({
  changes: Array.isArray(result) ? result.length : (result.rowCount ?? 0),
  lastInsertRowid: 0,
});

/**
 * Parameters as SQLite takes them: a NaN is stored as NULL (`id = NaN` finds nothing), where
 * PostgreSQL refuses "NaN" for a bigint; and a text's NUL characters, which PostgreSQL cannot store
 * at all (an error, a 500), are left out (decision 127): forms and the API refuse them where they are
 * typed; this keeps what no one typed (a carrier's inbound text, a query string) from failing.
 */
const asSqliteBinds = (params: unknown[]) =>
  params.map((value) =>
    typeof value === "number" && Number.isNaN(value)
      ? null
      : typeof value === "string" && value.includes("\u0000")
        ? value.replaceAll("\u0000", "")
        : value,
  );

let taught = false;

/** Teaches Drizzle's PostgreSQL builders the SQLite tables and terminals, once per process. */
function teachDrizzle(): void {
  if (taught) return;
  taught = true;
  type Method = (this: unknown, ...args: unknown[]) => unknown;
  const withTwinFirst = (prototype: object, name: string) => {
    const target = prototype as Record<string, Method>;
    const original = target[name]!;
    target[name] = function (this: unknown, first: unknown, ...rest: unknown[]) {
      return original.call(this, twinOf(first), ...rest);
    };
  };
  for (const name of ["insert", "update", "delete"]) withTwinFirst(PgDatabase.prototype, name);
  withTwinFirst(PgSelectBuilder.prototype, "from");
  // Joins are made per builder from createJoin (class fields), so wrapping it wraps them all.
  const builder = PgSelectQueryBuilderBase.prototype as unknown as Record<string, Method>;
  const createJoin = builder.createJoin!;
  builder.createJoin = function (this: unknown, ...args: unknown[]) {
    const join = createJoin.apply(this, args) as Method;
    return (table: unknown, ...rest: unknown[]) => join.call(this, twinOf(table), ...rest);
  };

  type Query = { execute(): Promise<Rows> };
  const terminals: Record<string, (this: Query) => Promise<unknown>> = {
    async all() {
      return rowsOf(await this.execute());
    },
    async get() {
      return rowsOf(await this.execute())[0];
    },
    async run() {
      return runResultOf(await this.execute());
    },
    async values() {
      return rowsOf(await this.execute()).map((row) => Object.values(row as object));
    },
  };
  for (const query of [PgSelectBase, PgInsertBase, PgUpdateBase, PgDeleteBase])
    Object.assign(query.prototype, terminals);

  // A write without RETURNING answers pg's result: give it SQLite's `changes` too (`await q`).
  const prepared = NodePgPreparedQuery.prototype as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
  const execute = prepared.execute;
  const counts = workCounters();
  prepared.execute = async function (this: unknown, ...args: unknown[]) {
    counts.statements += 1;
    const query = this as { params: unknown[] };
    query.params = asSqliteBinds(query.params);
    const result = (await execute.apply(this, args)) as Rows;
    if (!Array.isArray(result) && result && typeof result.rowCount === "number")
      Object.assign(result, { changes: result.rowCount });
    return result;
  };
}

/** The engine's pool and its executor outside transactions (each statement on any free connection). */
export type PostgresEngine = { pool: Pool; db: unknown };

export function openPostgres(url: string, max: number): PostgresEngine {
  teachDrizzle();
  // Connections are kept once opened (pg's default closes them after 10 s idle): a burst after a lull
  // would pay a new server process and every prepared statement parsed again per connection. Idle,
  // they do not keep a script's process from ending (a server or worker stays up by its own means).
  const pool = openPool(url, { max, idleTimeoutMillis: 0, allowExitOnIdle: true });
  return { pool, db: drizzle({ client: pool }) };
}

/** An executor on one connection (a transaction's). */
export function executorOn(client: PoolClient): unknown {
  teachDrizzle();
  return drizzle({ client });
}

const postgresTexts = new Map<string, string>();

/**
 * A raw statement's SQLite text as PostgreSQL reads it: `?` placeholders numbered ($1, $2...), and
 * camel-case column aliases quoted (PostgreSQL folds unquoted names to lower case; SQLite keeps them).
 */
export function postgresText(text: string): string {
  let converted = postgresTexts.get(text);
  if (converted !== undefined) return converted;
  let number = 0;
  // Strings and quoted names are copied as they are; only bare text is rewritten.
  converted = text.replace(
    /('(?:[^']|'')*'|"(?:[^"]|"")*")|\?|\b(as\s+)([A-Za-z_]\w*[A-Z]\w*)\b/g,
    (match, quoted, as, name) => {
      if (quoted) return match as string;
      if (as) return `${as as string}"${name as string}"`;
      return `$${++number}`;
    },
  );
  postgresTexts.set(text, converted);
  return converted;
}

const preparedNames = new Map<string, string>();

/**
 * The name a fixed statement text is prepared under: from its hash, so every copy of this module (the
 * server build's and the sources', sharing one pool) gives a text the same name and no two texts one.
 */
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (name === undefined)
    preparedNames.set(text, (name = `s${createHash("sha256").update(text).digest("hex").slice(0, 32)}`));
  return name;
}

/**
 * Runs a raw statement on `client` (a transaction's connection, or the pool). `named`, for the fixed
 * texts of the statement tables: a prepared statement, parsed once per connection and, after
 * PostgreSQL's first few custom plans, planned once (node-postgres remembers what each connection has).
 */
export async function query(client: Pool | PoolClient, text: string, params: unknown[], named = false) {
  workCounters().statements += 1;
  const values = asSqliteBinds(params);
  const answer = await (named ? client.query({ name: preparedName(text), text, values }) : client.query(text, values));
  // Several statements in one text (no parameters) answer with one result each: the last one's.
  const result = Array.isArray(answer) ? (answer as (typeof answer)[]).at(-1)! : answer;
  return { rows: result.rows as unknown[], changes: result.rowCount ?? 0 };
}

type DriverError = { code?: string; message?: string; cause?: unknown };

/** The error and its causes, outermost first: Drizzle wraps the driver's error in its own, as the cause. */
function causesOf(error: unknown): DriverError[] {
  const causes: DriverError[] = [];
  for (let cause = error as DriverError | undefined; cause; cause = cause.cause as DriverError | undefined)
    causes.push(cause);
  return causes;
}

/** SQLSTATEs after which a transaction may simply run again: a serialization failure, a deadlock. */
export function mayRetry(error: unknown, readCommitted = false): boolean {
  // READ COMMITTED sees a referenced row deleted by a transaction that committed meanwhile as a
  // foreign key violation, where SERIALIZABLE reports it as a serialization failure.
  const codes = readCommitted ? ["40001", "40P01", "23503"] : ["40001", "40P01"];
  return causesOf(error).some((cause) => cause.code !== undefined && codes.includes(cause.code));
}

/** SQLSTATEs and socket errors of a server that went away or is not back yet (a restart, a failover). */
const CONNECTION_LOST = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006", "ECONNREFUSED", "ECONNRESET"]);

/** node-postgres's refusal of a query on a connection it already knows is lost: the query was never sent. */
const NOT_SENT = "Client has encountered a connection error and is not queryable";

/** node-postgres's own words for a lost connection: mid-query, and for a query after it. */
const LOST_MESSAGES = new Set(["Connection terminated unexpectedly", NOT_SENT]);

/** Whether `error` is node-postgres refusing to send the query at all (so the server never saw it). */
export function neverSent(error: unknown): boolean {
  return causesOf(error).some((cause) => cause.message === NOT_SENT);
}

/** Whether `error` says the connection to the server was lost or could not be made. */
export function connectionLost(error: unknown): boolean {
  return causesOf(error).some(
    (cause) => (cause.code !== undefined && CONNECTION_LOST.has(cause.code)) || LOST_MESSAGES.has(cause.message ?? ""),
  );
}
