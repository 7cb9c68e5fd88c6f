// Stored inbound messages processed (keywords, replies): one job per batch, their inbound_outbox rows the record.
import { z } from "zod";
import { queueForRequest } from "#app/queue/queues.server.ts";

export const SMS_INBOUND_QUEUE = "sms-inbound";

/** Process stored inbound messages (keywords, replies); their inbound_outbox rows are the record. */
export const SmsInboundPayload = z.object({
  v: z.literal(1),
  inboundIds: z.array(z.number().int().positive()).min(1),
});
export type SmsInboundPayload = z.infer<typeof SmsInboundPayload>;

/** The sweep that re-adds inbound messages whose processing job Redis lost. */
export const SmsInboundReconcilePayload = z.object({ v: z.literal(1) });

/** Inbound messages per processing job: a job costs the worker two BullMQ scripts whatever its size. */
const INBOUND_JOB_BATCH = 200;

/** The processing jobs of these messages, INBOUND_JOB_BATCH each; throws at once while Redis is down. */
export async function addSmsInboundJobs(inboundIds: number[]): Promise<void> {
  if (inboundIds.length === 0) return;
  const jobs = [];
  for (let i = 0; i < inboundIds.length; i += INBOUND_JOB_BATCH) {
    const data: SmsInboundPayload = { v: 1, inboundIds: inboundIds.slice(i, i + INBOUND_JOB_BATCH) };
    jobs.push({
      name: "process",
      data,
      opts: { attempts: 5, backoff: { type: "exponential", delay: 1_000 }, removeOnComplete: true },
    });
  }
  await queueForRequest(SMS_INBOUND_QUEUE).addBulk(jobs);
}
