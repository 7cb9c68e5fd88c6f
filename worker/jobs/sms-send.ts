import type { Job } from "bullmq";
import { applyReceipts, sendAndRequeue } from "#app/modules/sms/dispatch.server.ts";
import { receiveInbound } from "#app/modules/inbound/receive.server.ts";
import { createTransport, envUpstream } from "#app/modules/sms/transports/index.server.ts";
import type { SmsTransport, UpstreamConfig } from "#app/modules/messaging/transport-types.ts";
import { upstreamIdsByDestination } from "#app/modules/routing/route-table.server.ts";
import { watchUpstreamConfigs } from "#app/modules/routing/upstreams.server.ts";
import { messageIdsOf, SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** A transport with the jobs still sending through it; a replaced one closes when the last is done. */
type InUse = { transport: SmsTransport; jobs: number; replaced: boolean };

/**
 * The send worker; the transport (e.g. the SMPP sessions) lives as long as the worker does. `routed`:
 * it opens the admin's upstreams beside the environment's, builds a new transport when they change
 * (an edit reaches every worker within seconds), and sends each message along its destination's route.
 */
export function createSmsSendJob(
  makeTransport: (upstreams: UpstreamConfig[]) => SmsTransport,
  { routed = false } = {},
): JobDefinition {
  let current: InUse | undefined;
  let watcher: ReturnType<typeof watchUpstreamConfigs> | undefined;
  const closeWhenIdle = async (inUse: InUse) => {
    if (inUse.replaced && inUse.jobs === 0) await inUse.transport.close();
  };
  const use = (upstreams: UpstreamConfig[]) => {
    const previous = current;
    current = { transport: makeTransport(upstreams), jobs: 0, replaced: false };
    if (previous) {
      previous.replaced = true;
      void closeWhenIdle(previous);
    }
  };
  return {
    queue: SMS_SEND_QUEUE,
    get concurrency() {
      return getEnv().WORKER_CONCURRENCY;
    },
    async onStart() {
      if (current) return;
      if (!routed) return use([envUpstream()]);
      // A start that failed (the database not there yet) is tried again: one watcher at a time.
      watcher?.stop();
      watcher = watchUpstreamConfigs((configs) => use([envUpstream(), ...configs]));
      await watcher.ready;
    },
    async onStop() {
      watcher?.stop();
      watcher = undefined;
      const last = current;
      current = undefined;
      await last?.transport.close();
    },
    async process(job: Job) {
      const inUse = current;
      if (!inUse) throw new Error("The SMS transport is not started");
      const upstreamsFor = routed ? await upstreamIdsByDestination() : undefined;
      inUse.jobs += 1;
      try {
        return await sendAndRequeue(inUse.transport, messageIdsOf(job.data), upstreamsFor);
      } finally {
        inUse.jobs -= 1;
        await closeWhenIdle(inUse);
      }
    },
  };
}

export const smsSend = createSmsSendJob((upstreams) => createTransport(applyReceipts, receiveInbound, upstreams), {
  routed: true,
});
