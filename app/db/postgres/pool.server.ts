// node-postgres for the PostgreSQL engine (issue 32). Values arrive as SQLite gives them: an int8
// (bigint columns, count(*)) and a numeric (sum() or avg() of bigints; the schema has no numeric
// column) as JavaScript numbers, not strings. Every stored value stays far below 2^53.
import pg from "pg";
import { log } from "#app/utils/log.server.ts";

pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** A pool of connections to `url`, returning the values the domain gets from SQLite. */
export function openPool(
  url: string,
  options: Pick<pg.PoolConfig, "max" | "connectionTimeoutMillis" | "idleTimeoutMillis" | "allowExitOnIdle"> = {},
): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, ...options });
  // An idle connection the server ended (a restart, a terminated backend): the pool drops it and
  // opens another when needed; unheard, the error would end the process.
  pool.on("error", (error) => log("warn", "db", "an idle PostgreSQL connection was closed", error));
  // The same for a connection checked out but between queries (a transaction awaiting its caller):
  // its next query fails and the caller sees that; the pool's own handler does not cover it.
  pool.on("connect", (client) =>
    client.on("error", (error) => log("warn", "db", "a checked-out PostgreSQL connection was closed", error)),
  );
  return pool;
}

/**
 * Runs `work` holding PostgreSQL's session advisory lock `key` on a connection of its own: processes
 * of every host wait for each other, and a process that dies gives the lock up with its session.
 */
export async function underAdvisoryLock<T>(url: string, key: number, work: (session: pg.PoolClient) => Promise<T>) {
  const pool = openPool(url, { max: 1 });
  try {
    const session = await pool.connect();
    try {
      await session.query("select pg_advisory_lock($1)", [key]);
      try {
        return await work(session);
      } finally {
        await session.query("select pg_advisory_unlock($1)", [key]);
      }
    } finally {
      session.release();
    }
  } finally {
    await pool.end();
  }
}
