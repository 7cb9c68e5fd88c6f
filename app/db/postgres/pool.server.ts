// node-postgres for the PostgreSQL engine (issue 32). Values arrive as SQLite gives them: an int8
// (bigint columns, count(*)) and a numeric (sum() or avg() of bigints; the schema has no numeric
// column) as JavaScript numbers, not strings. Every stored value stays far below 2^53.
import pg from "pg";

pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** A pool of connections to `url`, returning the values the domain gets from SQLite. */
export function openPool(url: string, options: { max?: number; connectionTimeoutMillis?: number } = {}): pg.Pool {
  return new pg.Pool({ connectionString: url, ...options });
}
