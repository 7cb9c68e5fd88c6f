import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { resolve } from "node:path";
import { getDb } from "#app/db/client.server.ts";

export function runMigrations() {
  migrate(getDb(), { migrationsFolder: resolve(process.cwd(), "drizzle") });
}
