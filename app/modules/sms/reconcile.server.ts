// Repairs what a crash can leave behind, from SQLite (the record): run at worker start and every
// SMS_RECONCILE_INTERVAL_MS (default a minute).
import { MESSAGE_STATE_TURN, withTx } from "#app/db/client.server.ts";
import { foldRollupChanges } from "#app/db/rollup-counts.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { failMessage, recordAccepted } from "#app/modules/sms/dispatch.server.ts";
import {
  acceptedPartCount,
  deleteOutboxRows,
  markInterrupted,
  moveOutboxBack,
  postponeOutboxRows,
  purgePendingReceipts,
  selectStaleOutboxRows,
  selectStuckSubmitting,
} from "#app/modules/sms/message-store.server.ts";
import { addSmsSendJobs } from "#app/queue/jobs/sms-send.server.ts";

/** An outbox row this long past due has had time to reach a worker through the normal path. */
export const OUTBOX_GRACE_MS = 30_000;
/** Times the reconciler adds a message's job again before it gives up on it (about an hour). */
export const MAX_REQUEUES = 60;
/** A receipt whose submit_sm_resp was never recorded is dropped after this. */
const PENDING_RECEIPT_TTL_MS = 3_600_000;
const BATCH = 1_000;

export const INTERRUPTED_REASON =
  "Interrupted while being handed to the carrier, which may or may not have it; not resent, to never send it twice";

/**
 * After a restore (which empties Redis), or a Redis that came back empty, Redis holds none of the
 * outbox's jobs, so waiting out the grace period would only delay them: every row becomes due for the
 * reconciler's next run, a retry's backoff still counted from where it was. Returns the rows.
 */
export async function handOutboxToReconciler(): Promise<number> {
  return await withTx(() => moveOutboxBack(OUTBOX_GRACE_MS), { turn: MESSAGE_STATE_TURN });
}

export type ReconcileReport = {
  enqueued: number;
  failed: number;
  submitted: number;
  unknown: number;
  receiptsPurged: number;
  rollupChangesFolded: number;
};

export async function reconcileSms(): Promise<ReconcileReport> {
  const now = clock.now();
  const report: ReconcileReport = {
    enqueued: 0,
    failed: 0,
    submitted: 0,
    unknown: 0,
    receiptsPurged: 0,
    rollupChangesFolded: 0,
  };

  // Queued messages long past due: their job never reached Redis, was lost with it, or failed.
  // Add it again (a message in two jobs is still sent once: the claim decides) and look again
  // after another grace period; one that keeps coming back is failed and refunded. The rows of
  // messages no longer queued go, and the rest are postponed, in one short transaction for all.
  const stale = await selectStaleOutboxRows(now - OUTBOX_GRACE_MS, BATCH);
  const queued = stale.filter(({ status }) => status === "queued");
  const due = queued.filter(({ requeues }) => requeues < MAX_REQUEUES);
  const gone = stale.filter(({ status }) => status !== "queued").map(({ messageId }) => messageId);
  // A sweep that found nothing opens no transaction.
  const postponed =
    gone.length === 0 && due.length === 0
      ? new Set<number>()
      : await withTx(
          async () => {
            if (gone.length > 0) await deleteOutboxRows(gone);
            return await postponeOutboxRows(due, now);
          },
          { turn: MESSAGE_STATE_TURN },
        );
  for (const { messageId, requeues } of queued) {
    if (requeues >= MAX_REQUEUES && (await failMessage(messageId, "Could not be sent: its send job kept failing")))
      report.failed += 1;
  }
  const again = due.map(({ messageId }) => messageId).filter((id) => postponed.has(id));
  await addSmsSendJobs(again);
  report.enqueued = again.length;

  // Claimed and then the worker vanished. Claiming happens right before the first byte leaves, so
  // the SMSC may have the message: with every part's provider id recorded it was accepted;
  // otherwise nobody can know, and it is not sent again.
  for (const { id, segments } of await selectStuckSubmitting(now - getEnv().SMS_SUBMIT_STALE_MS, BATCH)) {
    if ((await acceptedPartCount(id)) >= segments) {
      await recordAccepted(id, []);
      report.submitted += 1;
    } else if (await withTx(() => markInterrupted(id, INTERRUPTED_REASON, now), { turn: MESSAGE_STATE_TURN })) {
      report.unknown += 1;
    }
  }

  report.receiptsPurged = await withTx(() => purgePendingReceipts(now - PENDING_RECEIPT_TTL_MS), {
    turn: MESSAGE_STATE_TURN,
  });
  report.rollupChangesFolded = await foldRollupChanges();
  return report;
}
