import type { Job } from "bullmq";
import { processInbound, reconcileInbound } from "#app/modules/inbound/process.server.ts";
import {
  SMS_INBOUND_QUEUE,
  SmsInboundPayload,
  SmsInboundReconcilePayload,
} from "#app/queue/jobs/sms-inbound.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

const RECONCILE = "sms-inbound-reconcile";

/** Processes stored inbound messages; the sweep re-adds those whose job Redis lost. */
export const smsInbound: JobDefinition = {
  queue: SMS_INBOUND_QUEUE,
  concurrency: 5,
  schedules: [{ id: RECONCILE, every: 60_000, data: { v: 1 } }],
  async process(job: Job) {
    if (job.name === RECONCILE) {
      SmsInboundReconcilePayload.parse(job.data);
      return reconcileInbound();
    }
    return processInbound(SmsInboundPayload.parse(job.data).inboundIds);
  },
};
