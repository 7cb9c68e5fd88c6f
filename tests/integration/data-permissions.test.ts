// What the gateway writes to disk is its own user's alone: DATA_DIR 0700; SQLite's database, its WAL and
// shared-memory files, backups and a restored database 0600, whatever the umask.
import { chmodSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase, installDatabase } from "#app/db/backup.server.ts";
import { closeDb, databaseFile, getSqlite } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { prepareDataDir } from "#app/utils/env.server.ts";
import { itOnSqlite } from "#tests/support/engines.ts";

const scratch = mkdtempSync(join(tmpdir(), "smsgw-modes-"));
const dataDir = join(scratch, "data");
const modeOf = (path: string) => statSync(path).mode & 0o777;
let umask: number;

beforeAll(() => {
  // The usual default, which leaves new files readable by every user of the machine.
  umask = process.umask(0o022);
  // A DATA_DIR that does not exist yet, read at the first getEnv().
  process.env.DATA_DIR = dataDir;
});

afterAll(async () => {
  await closeDb();
  process.umask(umask);
});

// The database's own files are SQLite's: on PostgreSQL only DATA_DIR (its secrets) is the gateway's to write.

describe("file modes", () => {
  it("makes DATA_DIR 0700", async () => {
    prepareDataDir();
    expect(modeOf(dataDir)).toBe(0o700);
    await runMigrations();
    expect(modeOf(dataDir)).toBe(0o700);
  });

  itOnSqlite("makes the database, its WAL and shared memory 0600", () => {
    getSqlite().exec("create table if not exists probe (x); insert into probe values (1)");
    for (const file of [databaseFile(), `${databaseFile()}-wal`, `${databaseFile()}-shm`])
      expect(modeOf(file), file).toBe(0o600);
  });

  itOnSqlite("writes a backup 0600, and a restore puts the database in place 0600", async () => {
    const backup = join(scratch, "backup.db");
    await backupDatabase(backup);
    expect(modeOf(backup)).toBe(0o600);
    // A backup copied around with the default mode is still installed private.
    chmodSync(backup, 0o644);
    const restored = join(dataDir, "restored.db");
    installDatabase(backup, restored);
    expect(modeOf(restored)).toBe(0o600);
  });
});
