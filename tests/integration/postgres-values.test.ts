// The derived PostgreSQL tables give the domain the same JavaScript values as the SQLite ones
// (decision 126): the same rows written through Drizzle on both engines read back equal.
import Database from "better-sqlite3";
import { drizzle as sqliteDrizzle } from "drizzle-orm/better-sqlite3";
import { drizzle as postgresDrizzle } from "drizzle-orm/node-postgres";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { openPool, type Pool } from "#app/db/postgres/pool.server.ts";
import { postgresTables } from "#app/db/postgres/schema.server.ts";
import { inboundParts } from "#app/db/schema/inbound.ts";
import { senders } from "#app/db/schema/senders.ts";
import { users } from "#app/db/schema/core.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

const dir = mkdtempSync(join(tmpdir(), "smsgw-values-"));
let sqlite: Database.Database;
let pool: Pool;

beforeAll(async () => {
  copyFileSync(inject("templateDb"), join(dir, "app.db"));
  sqlite = new Database(join(dir, "app.db"));
  pool = openPool(await freshDatabase({ migrated: true }));
});

afterAll(async () => {
  sqlite.close();
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

const at = new Date(1_795_000_000_123);
const rows = {
  users: {
    email: "ada@example.com",
    fullName: "Ada",
    passwordHash: "x",
    creditBalance: 9_007_199_254,
    lowBalanceAlerted: true,
    disabledAt: at,
    createdAt: at,
  },
  senders: {
    address: "+15550001",
    kind: "long_number",
    ton: 1,
    npi: 1,
    userId: 1,
    isDefault: true,
    createdAt: at,
    updatedAt: at,
  },
  inboundParts: {
    concatKey: "a|b|7|2",
    sequence: 1,
    total: 2,
    fromPhone: "+15550002",
    toAddress: "+15550001",
    dataCoding: 8,
    payload: Buffer.from([0, 0xd8, 0x3d, 0xde, 0x00]),
    receivedAt: at,
  },
} as const;

test("rows written through Drizzle read back with the same JavaScript values on both engines", async () => {
  const onSqlite = sqliteDrizzle({ client: sqlite });
  const onPostgres = postgresDrizzle({ client: pool });
  const pairs = [
    [users, postgresTables.users, rows.users],
    [senders, postgresTables.senders, rows.senders],
    [inboundParts, postgresTables.inboundParts, rows.inboundParts],
  ] as const;
  for (const [sqliteTable, postgresTable, row] of pairs) {
    onSqlite
      .insert(sqliteTable)
      .values(row as never)
      .run();
    await onPostgres.insert(postgresTable).values(row as never);
    const fromSqlite = onSqlite.select().from(sqliteTable).all();
    const fromPostgres = await onPostgres.select().from(postgresTable);
    expect(fromPostgres).toEqual(fromSqlite);
  }
  // Defaults filled in: the same kinds of values (the time is the statement's, in milliseconds).
  const [user] = await onPostgres.select().from(postgresTables.users);
  expect(user).toMatchObject({ id: 1, role: "customer", emailVerified: true, timeZone: "UTC" });
});

test("raw counts and sums arrive as numbers, as SQLite gives them", async () => {
  const {
    rows: [totals],
  } = await pool.query("select count(*) as n, sum(credit_balance) as credits from users");
  expect(totals).toEqual({ n: 1, credits: 9_007_199_254 });
  const {
    rows: [created],
  } = await pool.query(
    "insert into sessions (id, user_id, expires_at) values ('s', 1, 0) returning created_at, user_id",
  );
  expect(Number.isInteger(created.created_at)).toBe(true);
  expect(created.user_id).toBe(1);
});
