// The PDUs every message costs, encoded and decoded by hand: the worker sends a submit_sm and a
// deliver_sm_resp and reads a submit_sm_resp and a deliver_sm (its receipt). The smpp package's
// generic coder (a filter pass, a size pass and a write pass over every field; GSM decoding of
// every receipt's text) cost more CPU than the rest of a submit. The package still runs the
// session: Session.send takes any object with isResponse(), sequence_number and toBuffer(), and
// every PDU it reads goes through PDU.fromStream (see readHotPdusByHand).
import smpp, { type PDU } from "smpp";

const SUBMIT_SM = 0x00000004;
const SUBMIT_SM_RESP = 0x80000004;
const DELIVER_SM = 0x00000005;
const DATA_SM = 0x00000103;
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
class EncodedPdu {
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

/** What a response needs of the PDU it answers: its command (deliver_sm or data_sm) and sequence number. */
export type Answered = { command_id: number; sequence_number: number };

/**
 * The responses to these deliver_sm and data_sm, written as one: deliver_sm_resp or data_sm_resp
 * carrying only an empty message_id, or the header alone for a refusal; the same bytes as one
 * response after another, in one buffer instead of a write each.
 */
export function emptyMessageIdResps(requests: Answered[], status: number): EncodedPdu {
  return new EncodedPdu("responses", true, () => {
    const size = HEADER_BYTES + (status === 0 ? 1 : 0);
    const buffer = Buffer.alloc(size * requests.length);
    for (const [i, request] of requests.entries())
      header(
        buffer.subarray(i * size, (i + 1) * size),
        (request.command_id | 0x80000000) >>> 0,
        status,
        request.sequence_number,
      );
    return buffer;
  });
}

// --- reading ---------------------------------------------------------------------------------------

const TLV_RECEIPTED_MESSAGE_ID = 0x001e;
const TLV_NETWORK_ERROR_CODE = 0x0423;
const TLV_MESSAGE_STATE = 0x0427;
const ESM_UDHI = 0x40;

/** A NUL-terminated ASCII string at `at` (as the package reads it), and where the next field starts. */
function cString(buffer: Buffer, at: number): [string, number] {
  const end = buffer.indexOf(0, at);
  if (end < 0) throw new RangeError("C-string without its NUL");
  return [buffer.toString("ascii", at, end), end + 1];
}

/**
 * A PDU the package's own methods (response(), isResponse()) work on, with the header's fields and
 * its command's name; the decoder adds the rest to it (not copied over from another object).
 */
function pduOf(body: Buffer, commandLength: number, command: string): PDU {
  const pdu = Object.create(smpp.PDU.prototype) as PDU;
  pdu.command_length = commandLength;
  pdu.command_id = body.readUInt32BE(0);
  pdu.command_status = body.readUInt32BE(4);
  pdu.sequence_number = body.readUInt32BE(8);
  pdu.command = command;
  return pdu;
}

/**
 * submit_sm_resp and a delivery receipt's deliver_sm (receipted_message_id and message_state
 * TLVs, ASCII text) from `body`, the bytes after command_length; null for any other PDU, which the
 * package decodes. The fields are the ones the package would give, the receipt's text as raw
 * bytes (receipts are ASCII; the package would have decoded them as GSM).
 */
export function decodeHotPdu(body: Buffer, commandLength: number): PDU | null {
  if (body.length !== commandLength - 4 || body.length < 12) return null;
  const commandId = body.readUInt32BE(0);
  try {
    if (commandId === SUBMIT_SM_RESP) {
      const pdu = pduOf(body, commandLength, "submit_sm_resp");
      if (body.length === 12) return pdu;
      const [messageId, end] = cString(body, 12);
      pdu.message_id = messageId;
      return end === body.length ? pdu : null;
    }
    if (commandId === DELIVER_SM)
      return decodeReceipt(body, commandLength) ?? decodeMessagePdu(body, commandLength, "deliver_sm");
    if (commandId === DATA_SM) return decodeMessagePdu(body, commandLength, "data_sm");
  } catch {
    // Malformed: the package decides what that means.
  }
  return null;
}

function decodeReceipt(body: Buffer, commandLength: number): PDU | null {
  let at = 12;
  const fields = pduOf(body, commandLength, "deliver_sm");
  [fields.service_type, at] = cString(body, at);
  fields.source_addr_ton = body[at++];
  fields.source_addr_npi = body[at++];
  [fields.source_addr, at] = cString(body, at);
  fields.dest_addr_ton = body[at++];
  fields.dest_addr_npi = body[at++];
  [fields.destination_addr, at] = cString(body, at);
  const esmClass = body[at++];
  fields.esm_class = esmClass;
  fields.protocol_id = body[at++];
  fields.priority_flag = body[at++];
  [fields.schedule_delivery_time, at] = cString(body, at);
  [fields.validity_period, at] = cString(body, at);
  fields.registered_delivery = body[at++];
  fields.replace_if_present_flag = body[at++];
  const dataCoding = body[at++];
  fields.data_coding = dataCoding;
  fields.sm_default_msg_id = body[at++];
  const smLength = body[at++];
  if (at + smLength > body.length || (esmClass & ESM_UDHI) !== 0 || (dataCoding & 0x0f) > 1) return null;
  fields.short_message = { message: body.subarray(at, at + smLength) };
  at += smLength;
  while (at + 4 <= body.length) {
    const tag = body.readUInt16BE(at);
    const length = body.readUInt16BE(at + 2);
    const value = at + 4;
    at = value + length;
    if (at > body.length) return null;
    if (tag === TLV_RECEIPTED_MESSAGE_ID) fields.receipted_message_id = cString(body, value)[0];
    else if (tag === TLV_MESSAGE_STATE && length === 1) fields.message_state = body[value];
    else if (tag === TLV_NETWORK_ERROR_CODE) fields.network_error_code = body.subarray(value, at);
    else return null;
  }
  if (at !== body.length || fields.receipted_message_id === undefined || fields.message_state === undefined)
    return null;
  return fields;
}

const TLV_SAR_MSG_REF_NUM = 0x020c;
const TLV_SAR_TOTAL_SEGMENTS = 0x020e;
const TLV_SAR_SEGMENT_SEQNUM = 0x020f;
const TLV_MESSAGE_PAYLOAD = 0x0424;

/**
 * Any other deliver_sm (an inbound SMS, or a receipt of an unusual shape) and every data_sm, with
 * the message's bytes as they came (short_message and message_payload as `{ message: Buffer }`):
 * the package would decode the text by data_coding and lose the UDH and GSM extension characters.
 * TLVs the gateway does not read are skipped.
 */
function decodeMessagePdu(body: Buffer, commandLength: number, command: "deliver_sm" | "data_sm"): PDU | null {
  const dataSm = command === "data_sm";
  let at = 12;
  const fields = pduOf(body, commandLength, command);
  [fields.service_type, at] = cString(body, at);
  fields.source_addr_ton = body[at++];
  fields.source_addr_npi = body[at++];
  [fields.source_addr, at] = cString(body, at);
  fields.dest_addr_ton = body[at++];
  fields.dest_addr_npi = body[at++];
  [fields.destination_addr, at] = cString(body, at);
  fields.esm_class = body[at++];
  if (dataSm) {
    fields.registered_delivery = body[at++];
    fields.data_coding = body[at++];
  } else {
    fields.protocol_id = body[at++];
    fields.priority_flag = body[at++];
    [fields.schedule_delivery_time, at] = cString(body, at);
    [fields.validity_period, at] = cString(body, at);
    fields.registered_delivery = body[at++];
    fields.replace_if_present_flag = body[at++];
    fields.data_coding = body[at++];
    fields.sm_default_msg_id = body[at++];
    const smLength = body[at++];
    if (smLength === undefined || at + smLength > body.length) return null;
    fields.short_message = { message: body.subarray(at, at + smLength) };
    at += smLength;
  }
  if (at > body.length) return null;
  while (at + 4 <= body.length) {
    const tag = body.readUInt16BE(at);
    const length = body.readUInt16BE(at + 2);
    const value = at + 4;
    at = value + length;
    if (at > body.length) return null;
    if (tag === TLV_RECEIPTED_MESSAGE_ID) fields.receipted_message_id = cString(body, value)[0];
    else if (tag === TLV_MESSAGE_STATE && length === 1) fields.message_state = body[value];
    else if (tag === TLV_NETWORK_ERROR_CODE) fields.network_error_code = body.subarray(value, at);
    else if (tag === TLV_MESSAGE_PAYLOAD) fields.message_payload = { message: body.subarray(value, at) };
    else if (tag === TLV_SAR_MSG_REF_NUM && length === 2) fields.sar_msg_ref_num = body.readUInt16BE(value);
    else if (tag === TLV_SAR_TOTAL_SEGMENTS && length === 1) fields.sar_total_segments = body[value];
    else if (tag === TLV_SAR_SEGMENT_SEQNUM && length === 1) fields.sar_segment_seqnum = body[value];
  }
  return at === body.length ? fields : null;
}

let installed = false;

/** Makes the package's Session read submit_sm_resp and receipts with decodeHotPdu (once per process). */
export function readHotPdusByHand(): void {
  if (installed) return;
  installed = true;
  const { PDU } = smpp;
  PDU.fromStream = (stream, commandLength) => {
    const body = stream.read(commandLength - 4);
    if (!body) return false;
    const hot = decodeHotPdu(body, commandLength);
    if (hot) return hot;
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(commandLength, 0);
    return new PDU(Buffer.concat([prefix, body]));
  };
}
