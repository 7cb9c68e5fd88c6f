import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { resolve } from "node:path";
import { db } from "./client.server.ts";

export function runMigrations() {
  migrate(db, { migrationsFolder: resolve(process.cwd(), "drizzle") });
}
