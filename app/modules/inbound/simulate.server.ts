// Test mode's "a phone texts the gateway": the message is encoded as the real deliver_sm PDUs a
// carrier would send (concatenated when long) and each goes through the SMPP transport's own
// decoding and the same InboundSink, so the demo exercises the path real traffic takes.
import { randomInt } from "node:crypto";
import smpp from "smpp";
import { receiveInbound } from "#app/modules/inbound/receive.server.ts";
import { encodeGsm7, splitMessage } from "#app/modules/messaging/segments.ts";
import { inboundOf } from "#app/modules/sms/transports/smpp-inbound.server.ts";
import { decodeHotPdu } from "#app/modules/sms/transports/smpp-pdu.server.ts";
import { concatUdh } from "#app/modules/sms/transports/smpp.server.ts";

function address(value: string) {
  return /^\+\d+$/.test(value) ? { ton: 1, npi: 1, addr: value.slice(1) } : { ton: 5, npi: 0, addr: value };
}

/** The deliver_sm PDUs (their bytes) a carrier would send for this text from `from` to `to`. */
function inboundPdus(from: string, to: string, text: string): Buffer[] {
  const split = splitMessage(text);
  const total = split.parts.length;
  const reference = randomInt(256);
  const source = address(from);
  const destination = address(to);
  return split.parts.map((part, index) => {
    const payload = split.encoding === "GSM-7" ? Buffer.from(encodeGsm7(part)) : Buffer.from(part, "utf16le").swap16();
    return new smpp.PDU("deliver_sm", {
      source_addr_ton: source.ton,
      source_addr_npi: source.npi,
      source_addr: source.addr,
      dest_addr_ton: destination.ton,
      dest_addr_npi: destination.npi,
      destination_addr: destination.addr,
      esm_class: total > 1 ? 0x40 : 0,
      data_coding: split.encoding === "GSM-7" ? 0 : 8,
      short_message: total > 1 ? Buffer.concat([concatUdh(reference, total, index + 1), payload]) : payload,
    }).toBuffer();
  });
}

/** Receives `text` from the phone `from`, sent to the sender `to`, as if it came over SMPP. */
export async function simulateInbound(input: { from: string; to: string; text: string }): Promise<void> {
  const messages = inboundPdus(input.from, input.to, input.text).map((bytes) => {
    const pdu = decodeHotPdu(bytes.subarray(4), bytes.readUInt32BE(0));
    if (!pdu) throw new Error("The simulated deliver_sm could not be decoded");
    return inboundOf(pdu);
  });
  await receiveInbound(messages);
}
