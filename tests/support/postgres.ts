// For test files that need PostgreSQL: a database of the file's own in the run's private cluster
// (tests/support/postgres-cluster.ts, started once by the global setup), so files run in parallel.
import pg from "pg";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { MIGRATED_TEMPLATE } from "#tests/support/postgres-cluster.ts";

/**
 * Creates a database with a name no other file or call uses and returns its URL: empty, or with
 * `migrated` a copy of the one the global setup migrated (drizzle-pg/), made in a fraction of the time.
 */
export async function freshDatabase({ migrated = false } = {}): Promise<string> {
  const url = new URL(inject("postgresAdminUrl"));
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url.href });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${migrated ? ` template ${MIGRATED_TEMPLATE}` : ""}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}
