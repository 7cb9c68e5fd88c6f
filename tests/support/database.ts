// Raw SQL in tests on the engine the file runs on (the vitest project "sqlite" or "postgres"): under
// PostgreSQL, getSqlite() would open the data directory's unused SQLite copy and read nothing real.
import { closeDb, getSqlite, onPostgres, usesPostgres } from "#app/db/client.server.ts";
import { statementFor, type StatementText } from "#app/db/statements.server.ts";

/** The rows of a query with `?` parameters (a shared text is numbered for PostgreSQL). */
export const sqlRows = <Row = Record<string, unknown>>(text: StatementText, ...params: unknown[]): Promise<Row[]> =>
  statementFor<unknown[], Row>(text).all(...params);

/** The first row of a query, or undefined. */
export const sqlRow = <Row = Record<string, unknown>>(
  text: StatementText,
  ...params: unknown[]
): Promise<Row | undefined> => statementFor<unknown[], Row>(text).get(...params);

/** The `n` of a `select count(*) as n ...`. */
export const sqlCount = async (text: StatementText, ...params: unknown[]): Promise<number> =>
  (await sqlRow<{ n: number }>(text, ...params))!.n;

/** Runs a write with `?` parameters; the rows it changed. */
export const sqlRun = async (text: StatementText, ...params: unknown[]): Promise<number> =>
  (await statementFor<unknown[], never>(text).run(...params)).changes;

/** Runs statements without parameters (schema changes, several at once), each engine's text where they differ. */
export async function sqlExec(text: StatementText): Promise<void> {
  if (usesPostgres()) await onPostgres(typeof text === "string" ? text : text.postgres, []);
  else getSqlite().exec(typeof text === "string" ? text : text.sqlite);
}

/** Closes this process's connection (or pool): the bench's last step before it exits. */
export const closeDatabase = closeDb;
