// Helpers for SMS tests: credits, message rows and waiting for a status.
import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import type { MessageStatus } from "#app/db/enums.ts";
import { smsMessageParts, smsMessages, smsOutbox } from "#app/db/schema/sms.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { messageIdsOf, SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { waitFor } from "#tests/support/wait.ts";

let grants = 0;

export function grantCredits(userId: number, amount: number): void {
  book({ userId, kind: "grant", amount, key: `test-grant:${userId}:${++grants}` });
}

export function messageRow(id: number) {
  return getDb().select().from(smsMessages).where(eq(smsMessages.id, id)).get();
}

export function messageParts(id: number) {
  return getDb()
    .select()
    .from(smsMessageParts)
    .where(eq(smsMessageParts.messageId, id))
    .orderBy(smsMessageParts.part)
    .all();
}

export function outboxHas(id: number): boolean {
  return getDb().select().from(smsOutbox).where(eq(smsOutbox.messageId, id)).get() !== undefined;
}

export function ledgerKeys(userId: number): string[] {
  return getDb()
    .select({ key: creditLedger.key })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(creditLedger.id)
    .all()
    .map((r) => r.key);
}

export async function waitForStatus(id: number, status: MessageStatus, timeout = 15_000) {
  return waitFor(
    () => {
      const row = messageRow(id);
      return row?.status === status ? row : undefined;
    },
    {
      timeout,
      what: () => `message ${id} to be ${status} (it is ${messageRow(id)?.status})`,
    },
  );
}

/** The send jobs in Redis that carry this message (a job carries a batch of message ids). */
export async function sendJobsFor(messageId: number) {
  const jobs = await getQueue(SMS_SEND_QUEUE).getJobs([
    "waiting",
    "delayed",
    "prioritized",
    "active",
    "completed",
    "failed",
  ]);
  return jobs.filter((job) => messageIdsOf(job.data).includes(messageId));
}
