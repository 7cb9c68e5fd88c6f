// What an inbound deliver_sm or data_sm carries, read from the fields decodeMessagePdu gives
// (smpp-pdu.server.ts): the addresses, the data coding, the text's bytes and the concatenation.
import type { PDU, ShortMessage } from "smpp";
import type { InboundSms } from "#app/modules/messaging/transport-types.ts";

const ESM_UDHI = 0x40;
const TON_INTERNATIONAL = 1;
const IEI_CONCAT_8BIT = 0x00;
const IEI_CONCAT_16BIT = 0x08;

const TON_UNKNOWN = 0;

/**
 * An address as the gateway keeps it: "+" and the digits for an international number. Many SMSCs
 * send international numbers with TON 0 (unknown): 8 digits or more are read as one too (short
 * codes are shorter).
 */
function inboundAddress(address: string, ton: number): string {
  const international =
    (ton === TON_INTERNATIONAL && /^\d+$/.test(address)) || (ton === TON_UNKNOWN && /^\d{8,15}$/.test(address));
  return international ? `+${address}` : address;
}

function bytesOf(field: ShortMessage | undefined): Buffer | null {
  if (field === undefined) return null;
  if (Buffer.isBuffer(field)) return field;
  if (typeof field === "string") return Buffer.from(field, "latin1");
  return Buffer.isBuffer(field.message) ? field.message : Buffer.from(field.message, "latin1");
}

/** The concatenation information element of a user data header, if it has one. */
function concatOfUdh(udh: Buffer): InboundSms["concat"] {
  for (let i = 1; i + 1 < udh.length; i += 2 + udh[i + 1]) {
    const iei = udh[i];
    const length = udh[i + 1];
    if (iei === IEI_CONCAT_8BIT && length === 3)
      return { reference: udh[i + 2], total: udh[i + 3], sequence: udh[i + 4] };
    if (iei === IEI_CONCAT_16BIT && length === 4)
      return { reference: udh.readUInt16BE(i + 2), total: udh[i + 4], sequence: udh[i + 5] };
  }
  return null;
}

/** The inbound SMS in a deliver_sm or data_sm that is not a receipt. */
export function inboundOf(pdu: PDU): InboundSms {
  let payload = bytesOf(pdu.message_payload) ?? bytesOf(pdu.short_message) ?? Buffer.alloc(0);
  let concat: InboundSms["concat"] = null;
  if ((pdu.esm_class ?? 0) & ESM_UDHI && payload.length > 0) {
    const udhLength = payload[0] + 1;
    concat = concatOfUdh(payload.subarray(0, udhLength));
    payload = payload.subarray(udhLength);
  }
  if (!concat && typeof pdu.sar_msg_ref_num === "number") {
    concat = {
      reference: pdu.sar_msg_ref_num,
      total: Number(pdu.sar_total_segments ?? 1),
      sequence: Number(pdu.sar_segment_seqnum ?? 1),
    };
  }
  // A "concatenated" message of one part, or a part out of range, is taken as it is.
  if (concat && (concat.total < 2 || concat.sequence < 1 || concat.sequence > concat.total)) concat = null;
  return {
    from: inboundAddress(String(pdu.source_addr ?? ""), Number(pdu.source_addr_ton ?? 0)),
    to: inboundAddress(String(pdu.destination_addr ?? ""), Number(pdu.dest_addr_ton ?? 0)),
    dataCoding: pdu.data_coding ?? 0,
    payload: Buffer.from(payload),
    concat,
  };
}
