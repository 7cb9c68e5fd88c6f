// npm run backup -- <file>: a consistent copy of DATA_DIR/app.db (or, with DATABASE_URL, a pg_dump
// of PostgreSQL), safe while the gateway runs (docs/operations.md#backups).
import { resolve } from "node:path";
import { backupDatabase } from "#app/db/backup.server.ts";
import { dumpPostgres } from "#app/db/postgres/dump.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

const target = process.argv[2];
if (!target) {
  console.error("usage: npm run backup -- <file>   (a new file; e.g. /var/backups/smsgw/app-2026-11-26.db)");
  process.exit(2);
}
// npm runs scripts in the project folder; a relative path means the caller's folder.
const file = resolve(process.env.INIT_CWD ?? process.cwd(), target);
try {
  const { DATABASE_URL } = getEnv();
  if (DATABASE_URL) {
    const { bytes, tables } = await dumpPostgres(DATABASE_URL, file);
    console.log(`[backup] ${file}: ${(bytes / 1024 / 1024).toFixed(1)} MB, pg_dump of ${tables} tables, checked`);
  } else {
    const { bytes, pages } = await backupDatabase(file);
    console.log(`[backup] ${file}: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${pages} pages, checked`);
  }
} catch (error) {
  console.error(`[backup] failed: ${(error as Error).message}`);
  process.exit(1);
}
