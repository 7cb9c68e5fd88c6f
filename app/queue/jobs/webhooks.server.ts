// Webhook deliveries: one job per batch of deliveries to one target, their webhook_deliveries rows the record.
import { z } from "zod";
import { getQueue } from "#app/queue/queues.server.ts";

export const WEBHOOKS_QUEUE = "webhooks";

/** One attempt of each of some deliveries to one target (their webhook_deliveries rows are the record); `attempt`: attempts made before it. */
export const WebhookDeliveryPayload = z.object({
  v: z.literal(2),
  deliveries: z.array(z.object({ deliveryId: z.number().int().positive(), attempt: z.number().int().min(0) })).min(1),
});
export type WebhookDeliveryPayload = z.infer<typeof WebhookDeliveryPayload>;
export const WebhookReconcilePayload = z.object({ v: z.literal(1) });

export type DeliveryAttempt = WebhookDeliveryPayload["deliveries"][number];

/** Deliveries to one target made in one job, due in `delayMs`. */
export type WebhookJob = { deliveries: DeliveryAttempt[]; delayMs?: number };

/**
 * A job of deliveries to one target; its id names the first delivery's attempt (and how many follow),
 * so a re-added job of an attempt already made does nothing.
 */
function webhookJob({ deliveries, delayMs = 0 }: WebhookJob) {
  const data: WebhookDeliveryPayload = { v: 2, deliveries };
  const [first] = deliveries;
  const more = deliveries.length > 1 ? `-n${deliveries.length}` : "";
  return {
    name: "deliver",
    data,
    opts: {
      jobId: `webhook-${first.deliveryId}-${first.attempt}${more}`,
      delay: delayMs,
      removeOnComplete: true,
      removeOnFail: true,
    },
  };
}

export async function addWebhookJob(job: WebhookJob): Promise<void> {
  const { name, data, opts } = webhookJob(job);
  await getQueue(WEBHOOKS_QUEUE).add(name, data, opts);
}

export async function addWebhookJobs(jobs: WebhookJob[]): Promise<void> {
  await getQueue(WEBHOOKS_QUEUE).addBulk(jobs.map(webhookJob));
}
