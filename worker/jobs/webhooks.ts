import type { Job } from "bullmq";
import { deliverWebhooks } from "#app/modules/webhooks/deliver.server.ts";
import { reconcileWebhooks } from "#app/modules/webhooks/outbox.server.ts";
import { capPendingDeliveries } from "#app/modules/webhooks/pending-cap.server.ts";
import { sendsFirst } from "#app/modules/webhooks/sends-first.server.ts";
import { WebhookDeliveryPayload, WebhookReconcilePayload, WEBHOOKS_QUEUE } from "#app/queue/jobs/webhooks.server.ts";
import { reconciler } from "#app/queue/run-alone.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const RECONCILE = "webhooks-reconcile";
const reconcileAlone = reconciler(RECONCILE, reconcileWebhooks);

export const webhooks: JobDefinition = {
  queue: WEBHOOKS_QUEUE,
  // Mostly waiting on receivers, each up to 10 s: 10 jobs of up to 25 deliveries, 5 POSTs of each at once.
  concurrency: 10,
  // Drops retries past an account's cap, then re-adds deliveries whose job Redis lost or whose worker died mid-attempt.
  schedules: [{ id: RECONCILE, every: 30_000, data: { v: 1 } }],
  onStart: async () => {
    await reconcileAlone();
  },
  async process(job: Job) {
    if (job.name === RECONCILE) {
      WebhookReconcilePayload.parse(job.data);
      const capped = await capPendingDeliveries();
      return { ...capped, ...(await reconcileAlone()) };
    }
    const { deliveries } = WebhookDeliveryPayload.parse(job.data);
    // Due when added (or when its retry delay ran out): the lag sends-first allows counts from then.
    await sendsFirst.waitTurn(job.timestamp + job.delay);
    return deliverWebhooks(deliveries);
  },
};
