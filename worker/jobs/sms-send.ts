import type { Job } from "bullmq";
import { applyReceipts, sendAndRequeue } from "#app/modules/sms/dispatch.server.ts";
import { receiveInbound } from "#app/modules/inbound/receive.server.ts";
import { createTransport } from "#app/modules/sms/transports/index.server.ts";
import type { SmsTransport } from "#app/modules/messaging/transport-types.ts";
import { messageIdsOf, SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** The send worker; the transport (e.g. the SMPP session) lives as long as the worker does. */
export function createSmsSendJob(makeTransport: () => SmsTransport): JobDefinition {
  let transport: SmsTransport | undefined;
  return {
    queue: SMS_SEND_QUEUE,
    get concurrency() {
      return getEnv().WORKER_CONCURRENCY;
    },
    async onStart() {
      transport ??= makeTransport();
    },
    async onStop() {
      await transport?.close();
      transport = undefined;
    },
    async process(job: Job) {
      if (!transport) throw new Error("The SMS transport is not started");
      return sendAndRequeue(transport, messageIdsOf(job.data));
    },
  };
}

export const smsSend = createSmsSendJob(() => createTransport(applyReceipts, receiveInbound));
