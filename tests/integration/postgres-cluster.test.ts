import pg from "pg";
import { expect, test } from "vitest";
import { freshDatabase } from "#tests/support/postgres.ts";

test("each call gets an empty database of its own in the run's private cluster", async () => {
  const [first, second] = await Promise.all([freshDatabase(), freshDatabase()]);
  expect(first).not.toBe(second);
  const client = new pg.Client({ connectionString: first });
  await client.connect();
  try {
    const { rows } = await client.query<{ database: string; tables: string; fsync: string }>(
      `select current_database() as database, current_setting('fsync') as fsync,
        (select count(*) from information_schema.tables where table_schema = 'public') as tables`,
    );
    expect(rows[0]).toEqual({ database: new URL(first).pathname.slice(1), fsync: "off", tables: "0" });
  } finally {
    await client.end();
  }
});
