// drizzle-pg's hand-written migration does on PostgreSQL what drizzle/'s FTS5 table and rollup
// trigger do on SQLite (decision 126): the same rows in, the same counts and search results out.
import Database from "better-sqlite3";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { openPool, type Pool } from "#app/db/postgres/pool.server.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

const dir = mkdtempSync(join(tmpdir(), "smsgw-hand-written-"));
let sqlite: Database.Database;
let pool: Pool;

/** Runs the same statement on both engines (`?` placeholders become `$n` for PostgreSQL). */
async function onBoth(source: string, params: unknown[] = []) {
  sqlite.prepare(source).run(...params);
  let n = 0;
  await pool.query(
    source.replace(/\?/g, () => `$${++n}`),
    params,
  );
}

beforeAll(async () => {
  copyFileSync(inject("templateDb"), join(dir, "app.db"));
  sqlite = new Database(join(dir, "app.db"));
  pool = openPool(await freshDatabase({ migrated: true }));
  for (const id of [1, 2]) {
    await onBoth("insert into users (id, email, full_name, password_hash) values (?, ?, 'x', 'x')", [
      id,
      `u${id}@example.com`,
    ]);
  }
});

afterAll(async () => {
  sqlite.close();
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

const inbound = (userId: number | null, receivedAt: number, key: string) => [userId, receivedAt, key];
const INSERT_INBOUND = `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
  values (?, '+15550001', '+15550002', 'hi', 'GSM-7', 1, ?, ?)`;

test("inbound messages count in their owner's 15-minute bucket on both engines, a many-row insert too", async () => {
  const bucket = 1_795_000_500_000 - (1_795_000_500_000 % 900_000);
  const rows = [
    inbound(1, bucket + 1, "a"),
    inbound(1, bucket + 899_999, "b"),
    inbound(1, bucket + 900_000, "c"),
    inbound(2, bucket, "d"),
    inbound(null, bucket, "e"),
  ];
  for (const [userId, receivedAt, key] of rows.slice(0, 3)) await onBoth(INSERT_INBOUND, [userId, key, receivedAt]);
  // One statement of several rows: SQLite's trigger runs per row, PostgreSQL's once over them all.
  const many = rows.slice(3);
  const values = many.map(() => "(?, '+15550001', '+15550002', 'hi', 'GSM-7', 1, ?, ?)").join(", ");
  await onBoth(
    `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at) values ${values}`,
    many.flatMap(([userId, receivedAt, key]) => [userId, key, receivedAt]),
  );

  const read = "select user_id, bucket, inbound from message_rollup order by user_id, bucket";
  const onSqlite = sqlite.prepare(read).all();
  // PostgreSQL's trigger appends to message_rollup_changes, which readers add to message_rollup's rows (decision 131).
  const readPostgres = `select user_id, bucket, sum(inbound)::bigint as inbound from (
      select user_id, bucket, inbound from message_rollup
      union all select user_id, bucket, inbound from message_rollup_changes) r
    group by user_id, bucket order by user_id, bucket`;
  expect(onSqlite).toEqual([
    { user_id: 1, bucket, inbound: 2 },
    { user_id: 1, bucket: bucket + 900_000, inbound: 1 },
    { user_id: 2, bucket, inbound: 1 },
  ]);
  expect((await pool.query(readPostgres)).rows).toEqual(onSqlite);
  expect((await pool.query("select count(*)::int as n from message_rollup_changes")).rows).toEqual([{ n: 4 }]);
});

test("order search finds the same orders as SQLite's FTS5 table, through the trigram index", async () => {
  const orders: [string, string, string][] = [
    ["Ada Lovelace", "ada@example.com", "+441234567"],
    ["Grace Hopper", "grace@navy.example", "+15550100"],
    ["Alan Turing", "alan@example.org", "+447654321"],
  ];
  for (const [name, email, phone] of orders) {
    await onBoth(
      `insert into orders (user_id, pickup_name, pickup_email, pickup_phone, total_cents, total_items, total_credits)
       values (1, ?, ?, ?, 100, 1, 10)`,
      [name, email, phone],
    );
  }
  const client = await pool.connect();
  try {
    // A table of three rows is read whole unless the planner is told not to.
    await client.query("set enable_seqscan = off");
    const found: number[] = [];
    for (const term of ["lovelace", "EXAMPLE", "555", "4765", "ace", "nobody"]) {
      const fts = sqlite
        .prepare("select rowid as id from orders_search where orders_search match ? order by rowid")
        .all(`"${term}"`);
      const search =
        "select id from orders where pickup_name ilike $1 or pickup_email ilike $1 or pickup_phone ilike $1";
      const { rows } = await client.query<{ id: number }>(search, [`%${term}%`]);
      expect(
        rows.sort((a, b) => a.id - b.id),
        term,
      ).toEqual(fts);
      found.push(rows.length);
      const plan = await client.query(`explain ${search}`, [`%${term}%`]);
      expect(plan.rows.map((row: { "QUERY PLAN": string }) => row["QUERY PLAN"]).join("\n")).toContain(
        "orders_search_trgm",
      );
    }
    expect(found).toEqual([1, 3, 1, 1, 2, 0]);
  } finally {
    client.release();
  }
});
