import { getEnv } from "#app/utils/env.server.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { fleetRate } from "#app/modules/sms/transports/fleet-rate.server.ts";
import { MultiBindTransport } from "#app/modules/sms/transports/multi-bind.server.ts";
import {
  RoutedTransport,
  upstreamReceiptSink,
  type UpstreamTransport,
} from "#app/modules/sms/transports/routed.server.ts";
import { type SmppOptions, SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import { ENV_UPSTREAM_ID } from "#app/modules/sms/transports/upstream-config.ts";
import type { InboundSink, ReceiptSink, SmsTransport, UpstreamConfig } from "#app/modules/messaging/transport-types.ts";

/** The upstream the environment configures: SMPP_URL's SMSC when SMS_TRANSPORT is smpp, else the simulator. */
export function envUpstream(): UpstreamConfig {
  const env = getEnv();
  const smpp = env.SMS_TRANSPORT === "smpp" && env.SMPP_URL;
  return {
    id: ENV_UPSTREAM_ID,
    name: "default",
    kind: smpp ? "smpp" : "simulator",
    ...(smpp && { url: env.SMPP_URL }),
    binds: env.SMPP_BINDS,
    window: env.SMPP_WINDOW,
    tps: env.SMPP_TPS,
    sourceAddr: env.SMPP_SOURCE_ADDR,
  };
}

/** Where receipts and inbound SMS go, whichever upstream they come from. */
export type TransportSinks = { onReceipts: ReceiptSink; onInbound: InboundSink };

/** One upstream's transport: its binds (SMPP), or a simulated carrier. `tuning`: timings for tests. */
export function upstreamTransport(
  config: UpstreamConfig,
  sinks: TransportSinks,
  tuning: Partial<SmppOptions> = {},
): UpstreamTransport {
  const env = getEnv();
  const onReceipts = upstreamReceiptSink(config.id, sinks.onReceipts);
  const sourceAddr = config.sourceAddr ?? env.SMPP_SOURCE_ADDR;
  if (config.kind === "simulator") {
    const simulator = new SimulatorTransport({
      dlrMs: env.SIMULATOR_DLR_MS,
      onReceipts,
      onInbound: sinks.onInbound,
      replyFrom: sourceAddr,
      upstream: config.id,
      failing: config.failing,
    });
    return { config, transport: simulator, binds: [simulator] };
  }
  const environment = config.id === ENV_UPSTREAM_ID;
  // The TPS is the deployment's total, shared in Redis by every bind of every worker process.
  const sharedRate = config.tps > 0 ? fleetRate(config.tps, environment ? "smpp" : `smpp-${config.id}`) : undefined;
  const binds = Array.from(
    { length: config.binds },
    (_, i) =>
      new SmppTransport({
        url: config.url!,
        systemId: config.systemId,
        password: config.password,
        upstream: config.id,
        bind: i + 1,
        sourceAddr,
        tps: config.tps,
        sharedRate,
        window: config.window,
        // SMPP_MAX_BINDS caps the sessions of the environment's account (its leases are not per upstream).
        maxBinds: environment ? env.SMPP_MAX_BINDS : undefined,
        onReceipts,
        onInbound: sinks.onInbound,
        ...tuning,
      }),
  );
  return { config, transport: binds.length === 1 ? binds[0] : new MultiBindTransport(binds), binds };
}

/**
 * The transport of the send worker: one per upstream (the environment's alone when `upstreams` is
 * not given), each message going along its route (OutgoingSms.upstreams, decision 138).
 */
export function createTransport(
  onReceipts: ReceiptSink,
  onInbound: InboundSink,
  upstreams: UpstreamConfig[] = [envUpstream()],
): SmsTransport {
  return new RoutedTransport(upstreams.map((config) => upstreamTransport(config, { onReceipts, onInbound })));
}
