import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { resolve } from "node:path";
import { underAdvisoryLock } from "#app/db/postgres/pool.server.ts";

/** The migrations' advisory lock: "smsg" in ASCII, a key no other lock of the app uses. */
export const MIGRATION_LOCK_KEY = 0x736d7367;

const migrationsFolder = () => resolve(process.cwd(), "drizzle-pg");

/**
 * Applies the PostgreSQL migrations (drizzle-pg/) this database lacks, under a session advisory
 * lock: Drizzle reads the newest applied migration before its own transaction, so processes of
 * several hosts starting together would otherwise apply the same one twice. The lock is the
 * session's: it ends with the connection if the process dies.
 */
export async function migratePostgres(url: string): Promise<void> {
  await underAdvisoryLock(url, MIGRATION_LOCK_KEY, (session) =>
    migrate(drizzle({ client: session }), { migrationsFolder: migrationsFolder() }),
  );
}
