import { getEnv } from "#app/utils/env.server.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { fleetRate } from "#app/modules/sms/transports/fleet-rate.server.ts";
import { MultiBindTransport } from "#app/modules/sms/transports/multi-bind.server.ts";
import { SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import type { InboundSink, ReceiptSink, SmsTransport } from "#app/modules/messaging/transport-types.ts";

/** The transport SMS_TRANSPORT names, configured from the environment. */
export function createTransport(onReceipts: ReceiptSink, onInbound: InboundSink): SmsTransport {
  const env = getEnv();
  if (env.SMS_TRANSPORT === "smpp" && env.SMPP_URL) {
    // SMPP_TPS is the deployment's total, shared in Redis by every bind of every worker process.
    const sharedRate = env.SMPP_TPS > 0 ? fleetRate(env.SMPP_TPS) : undefined;
    const binds = Array.from(
      { length: env.SMPP_BINDS },
      () =>
        new SmppTransport({
          url: env.SMPP_URL!,
          sourceAddr: env.SMPP_SOURCE_ADDR,
          tps: env.SMPP_TPS,
          sharedRate,
          window: env.SMPP_WINDOW,
          maxBinds: env.SMPP_MAX_BINDS,
          onReceipts,
          onInbound,
        }),
    );
    return binds.length === 1 ? binds[0] : new MultiBindTransport(binds);
  }
  return new SimulatorTransport({
    dlrMs: env.SIMULATOR_DLR_MS,
    onReceipts,
    onInbound,
    replyFrom: env.SMPP_SOURCE_ADDR,
  });
}
