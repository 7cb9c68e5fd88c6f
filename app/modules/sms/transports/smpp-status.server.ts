import type { SmppBindStatus } from "#app/modules/health/heartbeat.server.ts";
import { openSmppTransports } from "#app/modules/sms/transports/smpp.server.ts";

/** This process's SMPP binds summed, or null when it has none (the simulator, or a web-only process). */
export function smppBindStatus(): SmppBindStatus | null {
  if (openSmppTransports.size === 0) return null;
  const status: SmppBindStatus = { binds: 0, bound: 0, window: 0, inFlight: 0 };
  for (const transport of openSmppTransports) {
    const { bound, window, inFlight } = transport.bindStatus;
    status.binds += 1;
    status.bound += bound ? 1 : 0;
    status.window += window;
    status.inFlight += inFlight;
  }
  return status;
}
