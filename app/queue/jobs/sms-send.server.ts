// Messages handed to the SMSC: one job per batch of up to SEND_JOB_BATCH messages, whose rows are the record.
import type { JobsOptions } from "bullmq";
import { z } from "zod";
import { queueForRequest } from "#app/queue/queues.server.ts";

export const SMS_SEND_QUEUE = "sms-send";

/**
 * Messages to hand to the SMSC; everything else is read from SQLite, the record. Version 2 carries a
 * batch (the worker claims, submits and records it together); version 1, one message, is still read.
 */
const SmsSendPayload = z.union([
  z.object({ v: z.literal(2), messageIds: z.array(z.number().int().positive()).min(1) }),
  z.object({ v: z.literal(1), messageId: z.number().int().positive() }),
]);
type SmsSendPayload = z.infer<typeof SmsSendPayload>;

/** A send job's message ids; anything but a well-formed batch (version 1, a malformed payload) goes through the schema and its errors. */
export function messageIdsOf(data: unknown): number[] {
  const ids = batchIdsOf(data);
  if (ids) return ids;
  const payload = SmsSendPayload.parse(data);
  return payload.v === 2 ? payload.messageIds : [payload.messageId];
}

/** A batch's ids, checked by hand: zod's walk over up to 200 ids was 2 % of the worker's CPU. */
function batchIdsOf(data: unknown): number[] | null {
  if (typeof data !== "object" || data === null || !("v" in data) || data.v !== 2 || !("messageIds" in data))
    return null;
  const ids = data.messageIds;
  if (!Array.isArray(ids) || ids.length === 0) return null;
  for (const id of ids) if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ids as number[];
}

/** Messages per send job: a worker claims, submits and records one job's messages together. */
const SEND_JOB_BATCH = 200;

const sendJobOptions = (delayMs: number): JobsOptions => ({
  // Only for failures of the job itself; a message's own retries are new jobs (see dispatch).
  attempts: 5,
  backoff: { type: "exponential", delay: 1_000 },
  delay: delayMs > 0 ? delayMs : undefined,
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600 },
});

/**
 * Adds the send jobs, SEND_JOB_BATCH messages each, due in `delayMs`; throws at once while Redis is down.
 * The outbox keeps them safe if Redis is unreachable, and a message in two jobs is still sent once
 * (the worker's claim decides).
 */
export async function addSmsSendJobs(messageIds: number[], delayMs = 0): Promise<void> {
  if (messageIds.length === 0) return;
  const jobs = [];
  for (let i = 0; i < messageIds.length; i += SEND_JOB_BATCH) {
    const data: SmsSendPayload = { v: 2, messageIds: messageIds.slice(i, i + SEND_JOB_BATCH) };
    jobs.push({ name: "send", data, opts: sendJobOptions(delayMs) });
  }
  await queueForRequest(SMS_SEND_QUEUE).addBulk(jobs);
}
