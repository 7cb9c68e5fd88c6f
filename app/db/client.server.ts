import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { resolve } from "node:path";
import { env } from "../utils/env.server.ts";

export const databaseFile = resolve(env.DATA_DIR, "app.db");

const BUSY_TIMEOUT_MS = 5000;

function open(file: string) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return sqlite;
}

export const sqlite = open(databaseFile);
export const db = drizzle({ client: sqlite });
export type Db = typeof db;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Runs queries inside the caller's open transaction: a Drizzle transaction, or `db` under a raw one. */
export type Executor = Tx | Db;

const noWait = sqlite.prepare(`pragma busy_timeout = 0`);
const wait = sqlite.prepare(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`);

/**
 * Runs a write (`run` opens an IMMEDIATE transaction) without sleeping in SQLite's busy handler when
 * another process holds the write lock: that handler sleeps whole milliseconds with this process's
 * event loop stopped. Instead this yields and tries again, so the process keeps serving meanwhile.
 * For hot paths whose callers can wait; after BUSY_TIMEOUT_MS it gives up like the handler would.
 */
export async function writeWithoutStalling<T>(run: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let tries = 0; ; tries++) {
    noWait.get();
    try {
      return run();
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
    } finally {
      wait.get();
    }
    await new Promise((resume) => (tries < 20 ? setImmediate(resume) : setTimeout(resume, 1)));
  }
}
