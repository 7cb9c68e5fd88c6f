// Messages handed to the SMSC: one job per batch of up to SEND_JOB_BATCH messages, whose rows are the record.
import type { JobsOptions } from "bullmq";
import { z } from "zod";
import { queueForRequest } from "#app/queue/queues.server.ts";

export const SMS_SEND_QUEUE = "sms-send";

/**
 * Messages to hand to the SMSC; everything else is read from SQLite, the record. Version 2 carries a
 * batch (the worker claims, submits and records it together); version 1, one message, is still read.
 */
export const SmsSendPayload = z.union([
  z.object({ v: z.literal(2), messageIds: z.array(z.number().int().positive()).min(1) }),
  z.object({ v: z.literal(1), messageId: z.number().int().positive() }),
]);
export type SmsSendPayload = z.infer<typeof SmsSendPayload>;

export function messageIdsOf(payload: SmsSendPayload): number[] {
  return payload.v === 2 ? payload.messageIds : [payload.messageId];
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
