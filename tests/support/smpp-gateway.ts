// A worker that sends over real SMPP to the loopback test SMSC, set up as the integration tests need it.
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { type SmppOptions, SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { TestSmsc, type TestSmscOptions } from "#tests/support/smpp-server.ts";

/** A transport bound to the test SMSC: no rate limit, quick reconnects, receipts applied. */
export function smppTransportTo(smsc: TestSmsc, options: Partial<SmppOptions> = {}): SmppTransport {
  return new SmppTransport({
    url: smsc.url(),
    sourceAddr: "SMSGateway",
    tps: 0,
    window: 10,
    onReceipts: applyReceipts,
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    ...options,
  });
}

export type SmppGateway = { smsc: TestSmsc; transport: SmppTransport; workers: RunningWorkers; stop(): Promise<void> };

/** Starts the test SMSC and a send worker (plus any other jobs) bound to it. */
export async function startSmppGateway(
  options: { smsc?: TestSmscOptions; transport?: Partial<SmppOptions>; jobs?: JobDefinition[] } = {},
): Promise<SmppGateway> {
  const smsc = await TestSmsc.start(options.smsc);
  let transport: SmppTransport | undefined;
  const workers = await startWorkers([
    createSmsSendJob(() => (transport = smppTransportTo(smsc, options.transport))),
    ...(options.jobs ?? []),
  ]);
  if (!transport || !(await transport.ready())) throw new Error("The send worker did not bind to the test SMSC");
  return {
    smsc,
    transport,
    workers,
    async stop() {
      await workers.close();
      await smsc.stop();
    },
  };
}
