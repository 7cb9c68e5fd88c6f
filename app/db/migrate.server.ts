import { readFileSync } from "node:fs";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { resolve } from "node:path";
import { getSqlite, onConnection, onPostgres, usesPostgres } from "#app/db/client.server.ts";
import { migratePostgres } from "#app/db/postgres/migrate.server.ts";
import { acquireStartLock } from "#app/db/start-lock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

const migrationsFolder = () => resolve(process.cwd(), usesPostgres() ? "drizzle-pg" : "drizzle");

/**
 * Applies the migrations this database lacks. Under the start lock: Drizzle reads the newest applied
 * migration before its own BEGIN, so two processes starting together would both apply the same one.
 */
export async function runMigrations(): Promise<void> {
  // PostgreSQL's migrator takes an advisory lock of its own (every host starts through here).
  if (usesPostgres()) return migratePostgres(getEnv().DATABASE_URL!);
  const release = acquireStartLock();
  try {
    // Before the process serves anything: Drizzle's migrator is synchronous, on the raw connection.
    migrate(drizzle({ client: getSqlite() }), { migrationsFolder: migrationsFolder() });
  } finally {
    release();
  }
}

let newestShipped: number | undefined;

/**
 * True when the database has every migration this code ships: drizzle records each applied one
 * with its journal time, so the newest recorded must be the journal's newest (GET /readyz).
 */
export async function migrationsApplied(): Promise<boolean> {
  newestShipped ??= Math.max(
    ...(
      JSON.parse(readFileSync(resolve(migrationsFolder(), "meta/_journal.json"), "utf8")) as {
        entries: { when: number }[];
      }
    ).entries.map((entry) => entry.when),
  );
  try {
    const row = (
      usesPostgres()
        ? (await onPostgres("select max(created_at) as newest from drizzle.__drizzle_migrations", [])).rows[0]
        : await onConnection(() =>
            getSqlite().prepare("select max(created_at) as newest from __drizzle_migrations").get(),
          )
    ) as { newest: number | null };
    return Number(row.newest) >= newestShipped;
  } catch {
    // No migrations table: nothing was ever applied.
    return false;
  }
}
