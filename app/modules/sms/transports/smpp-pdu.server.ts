// The two PDUs the worker sends for every message, encoded by hand. The smpp package's generic
// encoder (a filter pass, a size pass and a write pass over every field) cost more CPU than the
// rest of a submit; these write the same bytes directly. The package still runs the session:
// Session.send takes any object with isResponse(), sequence_number and toBuffer().

const SUBMIT_SM = 0x00000004;
const DELIVER_SM_RESP = 0x80000005;
const HEADER_BYTES = 16;
const TLV_USER_MESSAGE_REFERENCE = 0x0204;
// Every submit_sm byte but the addresses' and the message's: 5 C-string NULs (service_type,
// source, destination, schedule, validity), 12 one-octet fields (sm_length among them) and the
// 6-octet TLV.
const SUBMIT_SM_FIXED_BYTES = 5 + 12 + 6;

export type SubmitSmFields = {
  source_addr_ton: number;
  source_addr_npi: number;
  source_addr: string;
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  esm_class: number;
  registered_delivery: number;
  data_coding: number;
  short_message: Buffer;
  user_message_reference: number;
};

/** A PDU whose bytes are made when the session has given it its sequence number. */
export class EncodedPdu {
  readonly command: string;
  sequence_number: number;
  private readonly response: boolean;
  private readonly encode: (sequence: number) => Buffer;

  constructor(command: string, response: boolean, encode: (sequence: number) => Buffer, sequence = 0) {
    this.command = command;
    this.response = response;
    this.encode = encode;
    this.sequence_number = sequence;
  }

  isResponse(): boolean {
    return this.response;
  }

  toBuffer(): Buffer {
    return this.encode(this.sequence_number);
  }
}

function header(buffer: Buffer, commandId: number, status: number, sequence: number) {
  buffer.writeUInt32BE(buffer.length, 0);
  buffer.writeUInt32BE(commandId, 4);
  buffer.writeUInt32BE(status, 8);
  buffer.writeUInt32BE(sequence, 12);
}

/** submit_sm with empty service type, schedule and validity, and the user_message_reference TLV. */
export function submitSm(fields: SubmitSmFields): EncodedPdu {
  if (fields.short_message.length > 254) throw new RangeError("short_message is longer than 254 octets");
  return new EncodedPdu("submit_sm", false, (sequence) => {
    const source = Buffer.byteLength(fields.source_addr, "latin1");
    const destination = Buffer.byteLength(fields.destination_addr, "latin1");
    const body = SUBMIT_SM_FIXED_BYTES + source + destination + fields.short_message.length;
    const buffer = Buffer.alloc(HEADER_BYTES + body);
    header(buffer, SUBMIT_SM, 0, sequence);
    let at = HEADER_BYTES + 1; // service_type ""
    at = buffer.writeUInt8(fields.source_addr_ton, at);
    at = buffer.writeUInt8(fields.source_addr_npi, at);
    at += buffer.write(fields.source_addr, at, "latin1") + 1;
    at = buffer.writeUInt8(fields.dest_addr_ton, at);
    at = buffer.writeUInt8(fields.dest_addr_npi, at);
    at += buffer.write(fields.destination_addr, at, "latin1") + 1;
    at = buffer.writeUInt8(fields.esm_class, at);
    at += 2; // protocol_id, priority_flag
    at += 2; // schedule_delivery_time "", validity_period ""
    at = buffer.writeUInt8(fields.registered_delivery, at);
    at += 1; // replace_if_present_flag
    at = buffer.writeUInt8(fields.data_coding, at);
    at += 1; // sm_default_msg_id
    at = buffer.writeUInt8(fields.short_message.length, at);
    at += fields.short_message.copy(buffer, at);
    at = buffer.writeUInt16BE(TLV_USER_MESSAGE_REFERENCE, at);
    at = buffer.writeUInt16BE(2, at);
    buffer.writeUInt16BE(fields.user_message_reference, at);
    return buffer;
  });
}

/** deliver_sm_resp to the deliver_sm with this sequence number; a refusal is the header alone. */
export function deliverSmResp(sequence: number, status: number): EncodedPdu {
  return new EncodedPdu(
    "deliver_sm_resp",
    true,
    () => {
      const buffer = Buffer.alloc(HEADER_BYTES + (status === 0 ? 1 : 0));
      header(buffer, DELIVER_SM_RESP, status, sequence);
      return buffer;
    },
    sequence,
  );
}
