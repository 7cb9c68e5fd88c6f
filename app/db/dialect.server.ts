// The engine-specific parts of Drizzle's query builder the domain names, so only app/db imports the
// SQLite dialect (decision 123), and the few SQL functions whose names differ by engine (decision 127).
import { type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { usesPostgres } from "#app/db/client.server.ts";

export { alias } from "drizzle-orm/sqlite-core";
export type { SQLiteTable as Table, SQLiteUpdateSetSource as UpdateSet } from "drizzle-orm/sqlite-core";

const list = (values: (SQLWrapper | number | string)[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** The smallest of the values: SQLite's scalar min(), PostgreSQL's least(). */
export function smallestOf<T = number>(...values: (SQLWrapper | number | string)[]): SQL<T> {
  return usesPostgres() ? sql<T>`least(${list(values)})` : sql<T>`min(${list(values)})`;
}

/** The largest of the values: SQLite's scalar max(), PostgreSQL's greatest(). */
export function largestOf<T = number>(...values: (SQLWrapper | number | string)[]): SQL<T> {
  return usesPostgres() ? sql<T>`greatest(${list(values)})` : sql<T>`max(${list(values)})`;
}

/** An expression written differently on each engine: the running one's. */
export const byEngine = <T>(expressions: { sqlite: SQL<T>; postgres: SQL<T> }): SQL<T> =>
  usesPostgres() ? expressions.postgres : expressions.sqlite;

/** Whether `error` is a unique index refusing a row: SQLite's code, or PostgreSQL's SQLSTATE 23505 (Drizzle wraps it as the cause). */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error as { code?: string; cause?: unknown } | undefined; cause; cause = cause.cause as typeof cause)
    if (cause.code === "SQLITE_CONSTRAINT_UNIQUE" || cause.code === "23505") return true;
  return false;
}
