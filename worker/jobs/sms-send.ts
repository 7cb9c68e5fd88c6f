import type { Job } from "bullmq";
import { applyReceipts, sendAndRequeue } from "#app/modules/sms/dispatch.server.ts";
import { receiveInbound } from "#app/modules/inbound/receive.server.ts";
import { createTransport } from "#app/modules/sms/transports/index.server.ts";
import type { SmsTransport } from "#app/modules/messaging/transport-types.ts";
import { messageIdsOf, SMS_SEND_QUEUE, SmsSendPayload } from "#app/queue/jobs/sms-send.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** A batch payload's ids, checked by hand: zod's walk over up to 200 ids was 2 % of the worker's CPU. */
function batchIdsOf(data: unknown): number[] | null {
  if (typeof data !== "object" || data === null || !("v" in data) || data.v !== 2 || !("messageIds" in data))
    return null;
  const ids = data.messageIds;
  if (!Array.isArray(ids) || ids.length === 0) return null;
  for (const id of ids) if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ids as number[];
}

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
      // Anything else (version 1, a malformed payload) goes through the schema and its errors.
      const ids = batchIdsOf(job.data) ?? messageIdsOf(SmsSendPayload.parse(job.data));
      return sendAndRequeue(transport, ids);
    },
  };
}

export const smsSend = createSmsSendJob(() => createTransport(applyReceipts, receiveInbound));
