// One process at a time through start-up's database work (migrations, seeding, the setup link):
// a write transaction on a lock database beside app.db, which the OS releases if the process dies.
import Database from "better-sqlite3";
import { resolve } from "node:path";
import { createPrivateFile, usesPostgres } from "#app/db/client.server.ts";
import { underAdvisoryLock } from "#app/db/postgres/pool.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

/** How long a start waits for another process's migrations and seeding before it gives up. */
const START_LOCK_WAIT_MS = 10 * 60 * 1000;

export const startLockFile = () => resolve(getEnv().DATA_DIR, "start.lock");

let lock: Database.Database | undefined;
let depth = 0;

/**
 * Takes the start lock (waiting, blocked, while another process holds it) and returns its release.
 * Re-entrant within a process: only the outermost release lets the next process in.
 */
export function acquireStartLock(): () => void {
  if (depth === 0) {
    const file = startLockFile();
    createPrivateFile(file);
    const connection = new Database(file, { timeout: START_LOCK_WAIT_MS });
    try {
      // IMMEDIATE takes SQLite's write lock on the file at once; nothing is ever written.
      connection.exec("BEGIN IMMEDIATE");
    } catch (error) {
      connection.close();
      throw new Error(`another process held ${file} (start-up's database work) too long`, { cause: error });
    }
    lock = connection;
  }
  depth += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    depth -= 1;
    if (depth > 0) return;
    // Closing ends the open transaction, and with it the lock.
    lock?.close();
    lock = undefined;
  };
}

/** Start-up's advisory lock on PostgreSQL: "smss" in ASCII (the migrations hold "smsg"). */
export const START_LOCK_KEY = 0x736d7373;

/** underStartLock on PostgreSQL: a session advisory lock, which ends with the session if the process dies. */
async function underPostgresStartLock<T>(work: () => T | Promise<T>): Promise<T> {
  return underAdvisoryLock(getEnv().DATABASE_URL!, START_LOCK_KEY, async () => await work());
}

/** Runs `work` holding the start lock, released when it settles (or with the process). */
export async function underStartLock<T>(work: () => T | Promise<T>): Promise<T> {
  if (usesPostgres()) return underPostgresStartLock(work);
  const release = acquireStartLock();
  try {
    return await work();
  } finally {
    release();
  }
}
