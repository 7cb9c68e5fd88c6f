import pg from "pg";
import { expect, test } from "vitest";
import { freshDatabase } from "#tests/support/postgres.ts";

async function describe(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ database: string; fsync: string; tables: number }>(
      `select current_database() as database, current_setting('fsync') as fsync,
        (select count(*)::int from information_schema.tables where table_schema = 'public') as tables`,
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

test("each call gets a database of its own in the run's private cluster, empty or migrated", async () => {
  const [empty, migrated, another] = await Promise.all([
    freshDatabase(),
    freshDatabase({ migrated: true }),
    freshDatabase({ migrated: true }),
  ]);
  expect(new Set([empty, migrated, another]).size).toBe(3);
  expect(await describe(empty)).toEqual({ database: new URL(empty).pathname.slice(1), fsync: "off", tables: 0 });
  // Every table of drizzle-pg/ (the parity test counts them exactly), in both copies.
  const { tables } = await describe(migrated);
  expect(tables).toBeGreaterThan(40);
  expect(await describe(another)).toMatchObject({ tables });
});
