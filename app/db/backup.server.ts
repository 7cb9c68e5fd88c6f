// Backups of the one SQLite file (docs/operations.md#backups, docs/decisions/081-backups-and-restore.md).
import Database from "better-sqlite3";
import { chmodSync, copyFileSync, existsSync, readdirSync, readlinkSync, renameSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createPrivateFile, databaseFile } from "#app/db/client.server.ts";
import { PRIVATE_FILE } from "#app/utils/env.server.ts";

/** More pages than any database has: the backup copies everything in one step, under one read snapshot. */
const ALL_PAGES = 0x7fffffff;

export type BackupResult = { file: string; bytes: number; pages: number };

/**
 * Copies the database (DATA_DIR/app.db) to `destination` with SQLite's online backup API while other
 * processes keep writing. One step copies every page under one read transaction, so the copy is the
 * database at one commit (WAL: writers go on meanwhile); steps of a few pages would start over at
 * every commit of a busy gateway. The copy goes to a temporary file, is checked, switched to a
 * rollback journal (one self-contained file) and only then renamed into place.
 */
export async function backupDatabase(destination: string, source = databaseFile()): Promise<BackupResult> {
  if (existsSync(destination)) throw new Error(`${destination} exists already; back up to a new file`);
  const partial = `${destination}.partial-${process.pid}`;
  const from = new Database(source, { fileMustExist: true });
  try {
    from.pragma("busy_timeout = 5000");
    createPrivateFile(partial);
    const progress = await from.backup(partial, { progress: () => ALL_PAGES });
    const check = verifyDatabase(partial);
    if (!check.ok) throw new Error(`the copy failed its check: ${check.problem}`);
    const copy = new Database(partial);
    copy.pragma("journal_mode = DELETE");
    copy.close();
    renameSync(partial, destination);
    return { file: destination, bytes: statSync(destination).size, pages: progress.totalPages };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    from.close();
  }
}

export type Verification = { ok: true; migrations: number } | { ok: false; problem: string };

/** Whether `file` is an intact SQLite database of this app (its migrations table is there). */
export function verifyDatabase(file: string): Verification {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") return { ok: false, problem: `quick_check says ${String(check)}` };
    const table = db.prepare("select 1 from sqlite_master where name = '__drizzle_migrations'").get();
    if (!table) return { ok: false, problem: "not a database of this app (no __drizzle_migrations table)" };
    const { n } = db.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number };
    return { ok: true, migrations: n };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  } finally {
    db?.close();
  }
}

/**
 * Processes that have the database (or its WAL) open, read from /proc: the web, workers and their
 * checkpoint threads all hold it for their whole life. Undefined where /proc cannot tell (not Linux).
 */
export function processesUsing(database = databaseFile()): number[] | undefined {
  if (!existsSync("/proc/self/fd")) return undefined;
  const files = new Set([database, `${database}-wal`, `${database}-shm`].map((f) => resolve(f)));
  const users: number[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's process: not readable without privileges
    }
    const holds = descriptors.some((fd) => {
      try {
        return files.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) users.push(pid);
  }
  return users;
}

/**
 * Puts a verified backup in place of the database. What was there (with its WAL) is kept beside it
 * as `<name>.before-restore-<time>`, never deleted. The caller has made sure nothing has it open.
 */
export function installDatabase(backup: string, database = databaseFile(), now = new Date()): { keptAs?: string } {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  let keptAs: string | undefined;
  for (const suffix of ["", "-wal", "-shm"]) {
    if (!existsSync(database + suffix)) continue;
    const aside = `${database}.before-restore-${stamp}${suffix}`;
    renameSync(database + suffix, aside);
    if (suffix === "") keptAs = aside;
  }
  // The backup is one self-contained file (rollback journal) that nothing else has open: a file copy is exact.
  const incoming = `${database}.restoring-${process.pid}`;
  copyFileSync(backup, incoming);
  // copyFile keeps the backup's mode, which may be anything after it travelled.
  chmodSync(incoming, PRIVATE_FILE);
  renameSync(incoming, database);
  return { keptAs };
}
