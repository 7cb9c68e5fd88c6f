import { getEnv } from "#app/utils/env.server.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import type { InboundSink, ReceiptSink, SmsTransport } from "#app/modules/sms/transports/types.ts";

/** The transport SMS_TRANSPORT names, configured from the environment. */
export function createTransport(onReceipts: ReceiptSink, onInbound: InboundSink): SmsTransport {
  const env = getEnv();
  if (env.SMS_TRANSPORT === "smpp" && env.SMPP_URL) {
    return new SmppTransport({
      url: env.SMPP_URL,
      sourceAddr: env.SMPP_SOURCE_ADDR,
      tps: env.SMPP_TPS,
      window: env.SMPP_WINDOW,
      onReceipts,
      onInbound,
    });
  }
  return new SimulatorTransport({
    dlrMs: env.SIMULATOR_DLR_MS,
    onReceipts,
    onInbound,
    replyFrom: env.SMPP_SOURCE_ADDR,
  });
}
