import { onConnection, onPostgres, prepared, type RunResult, usesPostgres } from "#app/db/client.server.ts";
import { postgresText } from "#app/db/postgres/engine.server.ts";

/** A raw SQL statement with typed parameters and rows; each terminal waits for its turn on the connection. */
export type RawStatement<Params extends unknown[], Row> = {
  get(...params: Params): Promise<Row | undefined>;
  all(...params: Params): Promise<Row[]>;
  run(...params: Params): Promise<RunResult>;
};

/**
 * A statement's text on each engine: one string where SQLite and PostgreSQL read the same, else
 * each engine's own (the keys of a module's table stay the same on both, decision 124).
 */
export type StatementText = string | { sqlite: string; postgres: string };

/** A named statement as declared: its text, with its parameters' and rows' types. */
export type Declared<Params extends unknown[], Row> = { text: StatementText; types?: [Params, Row] };

/** Declares a statement taking `Params` and giving `Row`s (none for a write without RETURNING). */
export function sqlText<Params extends unknown[] = [], Row = never>(text: StatementText): Declared<Params, Row> {
  return { text };
}

/** The text SQLite runs. */
const sqliteText = (text: StatementText) => (typeof text === "string" ? text : text.sqlite);

/** The text PostgreSQL runs: its own, or the shared one with numbered placeholders (engine.server.ts). */
export const postgresSource = (text: StatementText) => (typeof text === "string" ? postgresText(text) : text.postgres);

/** `named`: a prepared statement on PostgreSQL too (query in engine.server.ts), for the tables' fixed texts. */
function raw<Params extends unknown[], Row>(text: StatementText, named: boolean): RawStatement<Params, Row> {
  if (usesPostgres()) return onPostgresEngine(postgresSource(text), named);
  const source = sqliteText(text);
  return {
    get: (...params) => onConnection(() => prepared(source).get(...params) as Row | undefined),
    all: (...params) => onConnection(() => prepared(source).all(...params) as Row[]),
    run: (...params) => onConnection(() => prepared(source).run(...params)),
  };
}

/**
 * PostgreSQL has no named parameters: each `@name` (outside quotes) becomes `$n`, and a statement
 * called with one object of named values (as better-sqlite3 takes them) gets them in that order.
 */
function numberedNames(text: string): { text: string; values: (params: unknown[]) => unknown[] } {
  const names: string[] = [];
  const numbered = text.replace(/('(?:[^']|'')*'|"(?:[^"]|"")*")|@([A-Za-z_]\w*)/g, (match, quoted, name) => {
    if (quoted) return match as string;
    const at = names.indexOf(name as string);
    return `$${at >= 0 ? at + 1 : names.push(name as string)}`;
  });
  if (names.length === 0) return { text, values: (params) => params };
  return { text: numbered, values: ([named]) => names.map((name) => (named as Record<string, unknown>)[name]) };
}

function onPostgresEngine<Params extends unknown[], Row>(source: string, named: boolean): RawStatement<Params, Row> {
  const { text, values } = numberedNames(source);
  const on = (params: unknown[]) => onPostgres(text, values(params), named);
  return {
    get: async (...params) => (await on(params)).rows[0] as Row | undefined,
    all: async (...params) => (await on(params)).rows as Row[],
    // An insert's text for PostgreSQL says `returning id` where its caller reads lastInsertRowid.
    run: async (...params) => {
      const { changes, rows } = await on(params);
      return { changes, lastInsertRowid: (rows[0] as { id?: number } | undefined)?.id ?? 0 };
    },
  };
}

/** A statement made on its first run: the engine is known once the environment is read, not at import. */
function lazily<Params extends unknown[], Row>(make: () => RawStatement<Params, Row>): RawStatement<Params, Row> {
  let made: RawStatement<Params, Row> | undefined;
  return {
    get: (...params) => (made ??= make()).get(...params),
    all: (...params) => (made ??= make()).all(...params),
    run: (...params) => (made ??= make()).run(...params),
  };
}

type Runnable<Table> = {
  [Name in keyof Table]: Table[Name] extends Declared<infer Params, infer Row> ? RawStatement<Params, Row> : never;
};

/**
 * A module's table of named statements (decision 124), each prepared on first use (code is
 * imported before the migrations run) and run on the one connection, inside the running chain's
 * transaction if any.
 */
export function statements<Table extends Record<string, Declared<unknown[], unknown>>>(table: Table): Runnable<Table> {
  return Object.fromEntries(
    Object.entries(table).map(([name, declared]) => [name, lazily(() => raw(declared.text, true))]),
  ) as Runnable<Table>;
}

/**
 * A statement whose text is built at run time from a few fixed shapes (e.g. a list's filters),
 * prepared once per shape on SQLite; planned each time on PostgreSQL, for the values at hand (a
 * search term, a user with far more messages than most).
 */
export function statementFor<Params extends unknown[] = unknown[], Row = unknown>(
  text: StatementText,
): RawStatement<Params, Row> {
  return raw<Params, Row>(text, false);
}
