// The sweep behind the outbox reconcilers whose rows each carry their own job: SQLite is the record,
// Redis can be rebuilt, so every row still pending has its job added again (a job id that waits is kept).

/** Rows read and re-added per round: one keyset page, one addBulk. */
const RECONCILE_PAGE = 500;

/**
 * Re-adds the jobs of every row `pendingAfter` finds, a page at a time in id order (keyset pages:
 * it returns up to `limit` rows with an id above `afterId`, ordered by id).
 */
export async function reconcileOutbox<Row extends { id: number }>(
  pendingAfter: (afterId: number, limit: number) => Promise<Row[]>,
  addJobs: (rows: Row[]) => Promise<void>,
): Promise<{ enqueued: number }> {
  let after = 0;
  let enqueued = 0;
  for (;;) {
    const page = await pendingAfter(after, RECONCILE_PAGE);
    if (page.length === 0) return { enqueued };
    await addJobs(page);
    enqueued += page.length;
    after = page[page.length - 1].id;
  }
}
