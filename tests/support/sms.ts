// Helpers for SMS tests: credits, message rows and waiting for a status.
import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import type { MessageStatus } from "#app/db/enums.ts";
import { smsMessageParts, smsMessages, smsOutbox } from "#app/db/schema/sms.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { messageIdsOf, SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import type { SmsTransport } from "#app/modules/messaging/transport-types.ts";
import { waitFor } from "#tests/support/wait.ts";

let grants = 0;

export async function grantCredits(userId: number, amount: number): Promise<void> {
  await book({ userId, kind: "grant", amount, key: `test-grant:${userId}:${++grants}` });
}

export async function messageRow(id: number) {
  return await getDb().select().from(smsMessages).where(eq(smsMessages.id, id)).get();
}

export async function messageParts(id: number) {
  return await getDb()
    .select()
    .from(smsMessageParts)
    .where(eq(smsMessageParts.messageId, id))
    .orderBy(smsMessageParts.part)
    .all();
}

export async function outboxHas(id: number): Promise<boolean> {
  return (await getDb().select().from(smsOutbox).where(eq(smsOutbox.messageId, id)).get()) !== undefined;
}

export async function ledgerKeys(userId: number): Promise<string[]> {
  return (
    await getDb()
      .select({ key: creditLedger.key })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(creditLedger.id)
      .all()
  ).map((r) => r.key);
}

export async function waitForStatus(id: number, status: MessageStatus, timeout = 15_000) {
  return waitFor(
    async () => {
      const row = await messageRow(id);
      return row?.status === status ? row : undefined;
    },
    {
      timeout,
      what: async () => `message ${id} to be ${status} (it is ${(await messageRow(id))?.status})`,
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

/** A transport whose SMSC accepts every part of every message it claims (provider ids `p-<id>-<part>`). */
export const acceptAll: SmsTransport = {
  name: "accept-all",
  async submitMany(messages, claim) {
    const claimed = await claim(messages.map((m) => m.id));
    return new Map(
      messages.map((m) => [
        m.id,
        claimed.has(m.id)
          ? { kind: "accepted" as const, acks: m.parts.map((part) => ({ part, providerId: `p-${m.id}-${part}` })) }
          : { kind: "not-claimed" as const },
      ]),
    );
  },
  async close() {},
};
