import { onConnection, prepared, type RunResult } from "#app/db/client.server.ts";

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

/** The text this engine runs. */
const sqliteText = (text: StatementText) => (typeof text === "string" ? text : text.sqlite);

function raw<Params extends unknown[], Row>(source: string): RawStatement<Params, Row> {
  return {
    get: (...params) => onConnection(() => prepared(source).get(...params) as Row | undefined),
    all: (...params) => onConnection(() => prepared(source).all(...params) as Row[]),
    run: (...params) => onConnection(() => prepared(source).run(...params)),
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
    Object.entries(table).map(([name, declared]) => [name, raw(sqliteText(declared.text))]),
  ) as Runnable<Table>;
}

/**
 * A statement whose text is built at run time from a few fixed shapes (e.g. a list's filters),
 * prepared once per shape.
 */
export function statementFor<Params extends unknown[] = unknown[], Row = unknown>(
  text: StatementText,
): RawStatement<Params, Row> {
  return raw<Params, Row>(sqliteText(text));
}
