// Commit, then enqueue: the row written by the transaction (with its outbox entry) is the record,
// the job in Redis only the fast path to a worker. A job Redis does not take is added later by the
// row's reconciler, so a failure here is not the caller's error; it is logged once per outage.
import { log } from "#app/utils/log.server.ts";

// The process's enqueue outage: from the first job Redis did not take to the next it did.
let failing = false;

/**
 * Adds a job for rows that have just committed; call it after the transaction, never inside.
 * Never rejects: when Redis does not take the job, the rows wait for their reconciler. The first
 * such failure is logged (naming `what`), the others of the same outage are not, and the next job
 * that goes in logs that Redis takes jobs again.
 */
export async function enqueueAfterCommit(what: string, add: () => Promise<unknown>): Promise<void> {
  try {
    await add();
  } catch (error) {
    if (failing) return;
    failing = true;
    log(
      "error",
      "queue",
      `could not add the job for ${what}; until Redis takes jobs again, the reconcilers add them from SQLite (logged once per outage)`,
      error,
    );
    return;
  }
  if (!failing) return;
  failing = false;
  log("info", "queue", "Redis takes jobs again; the reconcilers add those that waited");
}
