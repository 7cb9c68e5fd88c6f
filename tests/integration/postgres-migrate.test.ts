// PostgreSQL migrations under the advisory lock (decision 126): processes of several hosts starting
// together each apply what is missing, and every migration runs once.
import pg from "pg";
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { migratePostgres } from "#app/db/postgres/migrate.server.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

const journal = JSON.parse(readFileSync("drizzle-pg/meta/_journal.json", "utf8")) as { entries: { when: number }[] };

test("five concurrent migrations of an empty database all succeed and record each migration once", async () => {
  const url = await freshDatabase();
  // Each call opens its own pool and session, as five processes would.
  await Promise.all(Array.from({ length: 5 }, () => migratePostgres(url)));

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ created_at: string; times: number }>(
      "select created_at, count(*)::int as times from drizzle.__drizzle_migrations group by created_at order by created_at",
    );
    expect(rows.map((row) => [Number(row.created_at), row.times])).toEqual(journal.entries.map((e) => [e.when, 1]));
    // Nothing left locked behind them.
    const locks = await client.query("select 1 from pg_locks where locktype = 'advisory'");
    expect(locks.rowCount).toBe(0);
  } finally {
    await client.end();
  }
});
