import smpp from "smpp";
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

// SMPP 3.4 section 5.1.3: the command_status values of a submit_sm_resp that fault the message
// itself (its destination, its length, its schedule), which every carrier would refuse alike.
const MESSAGE_IS_BAD = new Set(
  ["ESME_RINVMSGLEN", "ESME_RINVDSTADR", "ESME_RINVDSTTON", "ESME_RINVDSTNPI", "ESME_RINVSCHED", "ESME_RINVEXPIRY"].map(
    (name) => smpp.errors[name],
  ),
);

/**
 * Whether a refused submit may go to the next upstream: every non-zero status says this SMSC did
 * not take it, and all but those faulting the message itself are about this carrier (its bind,
 * load, account, sender registration, or a code of its own), so another may take it (decision 138).
 */
export function anotherUpstreamMayTake(commandStatus: number): boolean {
  return commandStatus !== 0 && !MESSAGE_IS_BAD.has(commandStatus);
}
