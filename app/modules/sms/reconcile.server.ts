// Repairs what a crash can leave behind, from SQLite (the record): run at worker start and every
// SMS_RECONCILE_INTERVAL_MS (default a minute).
import type { MessageStatus } from "../../db/schema/sms.ts";
import { statement } from "../../db/statements.server.ts";
import { getQueue, QUEUES } from "../../queue/queues.server.ts";
import { clock } from "../../utils/clock.server.ts";
import { env } from "../../utils/env.server.ts";
import { acceptedPartCount, failMessage, recordAccepted } from "./dispatch.server.ts";
import { enqueueSends, sendJobId } from "./send.server.ts";

/** An outbox row this old has had time to reach Redis through the normal path. */
export const OUTBOX_GRACE_MS = 30_000;
/** A receipt whose submit_sm_resp was never recorded is dropped after this. */
export const PENDING_RECEIPT_TTL_MS = 3_600_000;
const BATCH = 1_000;

export const INTERRUPTED_REASON =
  "Interrupted while being handed to the carrier, which may or may not have it; not resent, to never send it twice";

const selectStaleOutbox = statement<[number, number], { messageId: number; status: MessageStatus }>(
  `select o.message_id as messageId, m.status from sms_outbox o join sms_messages m on m.id = o.message_id
   where o.created_at < ? order by o.created_at limit ?`,
);
const deleteOutbox = statement("delete from sms_outbox where message_id = ?");
const selectStuck = statement<[number, number], { id: number; segments: number }>(
  "select id, segments from sms_messages where status = 'submitting' and updated_at < ? order by updated_at limit ?",
);
const markUnknown = statement(
  "update sms_messages set status = 'unknown', error = ?, updated_at = ? where id = ? and status = 'submitting'",
);
const purgePending = statement("delete from sms_pending_receipts where received_at < ?");

export type ReconcileReport = { enqueued: number; failed: number; submitted: number; unknown: number; receiptsPurged: number };

export async function reconcileSms(): Promise<ReconcileReport> {
  const now = clock.now();
  const report: ReconcileReport = { enqueued: 0, failed: 0, submitted: 0, unknown: 0, receiptsPurged: 0 };

  // Queued messages whose job is missing from Redis (never added, or lost): add it again. A job that
  // is still waiting or delayed keeps its id, so adding twice is impossible.
  const queue = getQueue(QUEUES.smsSend);
  const missing: number[] = [];
  await Promise.all(
    selectStaleOutbox()
      .all(now - OUTBOX_GRACE_MS, BATCH)
      .map(async ({ messageId, status }) => {
        if (status !== "queued") {
          deleteOutbox().run(messageId);
          return;
        }
        const job = await queue.getJob(sendJobId(messageId));
        const state = job ? await job.getState() : "missing";
        if (state === "failed") {
          // Its job failed for good before the message reached the SMSC.
          if (failMessage(messageId, `Could not be sent: ${job?.failedReason ?? "the send job failed"}`)) report.failed += 1;
          return;
        }
        if (state === "completed" || state === "unknown") await job?.remove();
        else if (state !== "missing") return;
        missing.push(messageId);
      }),
  );
  await enqueueSends(missing);
  report.enqueued = missing.length;

  // Claimed and then the worker vanished. Claiming happens right before the first byte leaves, so
  // the SMSC may have the message: with every part's provider id recorded it was accepted;
  // otherwise nobody can know, and it is not sent again.
  for (const { id, segments } of selectStuck().all(now - env.SMS_SUBMIT_STALE_MS, BATCH)) {
    if (acceptedPartCount(id) >= segments) {
      recordAccepted(id, []);
      report.submitted += 1;
    } else if (markUnknown().run(INTERRUPTED_REASON, now, id).changes === 1) {
      report.unknown += 1;
    }
  }

  report.receiptsPurged = purgePending().run(now - PENDING_RECEIPT_TTL_MS).changes;
  return report;
}
