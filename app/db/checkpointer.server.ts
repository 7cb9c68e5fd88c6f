import { once } from "node:events";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { databaseFile, getSqlite, usesPostgres } from "#app/db/client.server.ts";

// Runs on its own thread with its own connection (CommonJS, as an eval'd worker is).
const source = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 1000");
const timer = setInterval(() => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch { /* busy now: the next tick tries again */ }
}, workerData.everyMs);
parentPort.on("message", () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/**
 * Moves WAL checkpoints off the event loop. SQLite otherwise checkpoints inside whichever commit
 * crosses 1,000 WAL pages, writing pages back and syncing the files while that process's event
 * loop waits. Here a thread checkpoints passively (never blocking writers) every `everyMs`.
 */
export function startCheckpointer(everyMs = 250): { stop: () => Promise<void> } {
  // PostgreSQL checkpoints in its own processes.
  if (usesPostgres()) return { stop: async () => {} };
  const sqlite = getSqlite();
  sqlite.pragma("wal_autocheckpoint = 0");
  sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(source, { eval: true, workerData: { file: databaseFile(), driver, everyMs } });
  worker.unref();
  return {
    stop: async () => {
      const exited = once(worker, "exit");
      worker.postMessage("stop");
      await exited;
      sqlite.pragma("wal_checkpoint(PASSIVE)");
    },
  };
}
