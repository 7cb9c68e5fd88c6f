// The hand-encoded PDUs must be byte for byte what the smpp package would send.
import smpp from "smpp";
import { describe, expect, it } from "vitest";
import {
  decodeHotPdu,
  emptyMessageIdResps,
  submitSm,
  type SubmitSmFields,
} from "#app/modules/sms/transports/smpp-pdu.server.ts";
import { parseReceipt } from "#app/modules/sms/transports/smpp.server.ts";

const base: SubmitSmFields = {
  source_addr_ton: 5,
  source_addr_npi: 0,
  source_addr: "SMSGateway",
  dest_addr_ton: 1,
  dest_addr_npi: 1,
  destination_addr: "447911123456",
  esm_class: 0,
  registered_delivery: 1,
  data_coding: 0,
  short_message: Buffer.from("Hello there"),
  user_message_reference: 4321,
};

/** The fields the hand decoder reads of a deliver_sm or data_sm, compared with the package's. */
const DECODED_FIELDS = [
  "command",
  "command_id",
  "sequence_number",
  "esm_class",
  "data_coding",
  "source_addr",
  "destination_addr",
  "receipted_message_id",
  "message_state",
];

function libraryBytes(fields: SubmitSmFields, sequence: number): Buffer {
  const pdu = new smpp.PDU("submit_sm", { ...fields });
  pdu.sequence_number = sequence;
  return pdu.toBuffer();
}

describe("submit_sm", () => {
  it.each([
    ["GSM-7 from an alphanumeric sender", base],
    [
      "UCS-2 from an international number",
      {
        ...base,
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: "15550100",
        data_coding: 8,
        short_message: Buffer.from("0048006900200d83dde00", "hex"),
      },
    ],
    [
      "a concatenated part with its UDH",
      {
        ...base,
        esm_class: 0x40,
        short_message: Buffer.concat([Buffer.from([5, 0, 3, 7, 2, 1]), Buffer.alloc(134, 0x41)]),
      },
    ],
    ["an empty message and reference 0", { ...base, short_message: Buffer.alloc(0), user_message_reference: 0 }],
  ])("%s", (_, fields) => {
    const pdu = submitSm(fields);
    pdu.sequence_number = 123456;
    expect(pdu.isResponse()).toBe(false);
    expect(pdu.toBuffer().toString("hex")).toBe(libraryBytes(fields, 123456).toString("hex"));
    // And the package reads back what was written.
    const read = new smpp.PDU(pdu.toBuffer());
    expect(read).toMatchObject({
      command: "submit_sm",
      sequence_number: 123456,
      destination_addr: fields.destination_addr,
      user_message_reference: fields.user_message_reference,
    });
  });

  it("refuses a message too long for short_message", () => {
    expect(() => submitSm({ ...base, short_message: Buffer.alloc(255) })).toThrow(RangeError);
  });
});

describe("deliver_sm_resp and data_sm_resp", () => {
  it.each([0, smpp.errors.ESME_RX_T_APPN])("status %i, several in one buffer", (status) => {
    const requests = [
      ["deliver_sm", 77],
      ["data_sm", 78],
      ["deliver_sm", 0x7fffffff],
    ].map(([command, sequence]) => {
      const request = new smpp.PDU(command as string, { sequence_number: sequence });
      request.sequence_number = sequence as number;
      return request;
    });
    const expected = Buffer.concat(requests.map((r) => r.response({ command_status: status }).toBuffer()));
    const pdu = emptyMessageIdResps(requests, status);
    expect(pdu.isResponse()).toBe(true);
    expect(pdu.toBuffer().toString("hex")).toBe(expected.toString("hex"));
  });
});

describe("reading submit_sm_resp and receipts by hand", () => {
  /** The bytes after command_length, as the session hands them to PDU.fromStream. */
  const bodyOf = (pdu: InstanceType<typeof smpp.PDU>) => {
    const bytes = pdu.toBuffer();
    return { body: bytes.subarray(4), length: bytes.length };
  };
  const library = (command: string, fields: Record<string, unknown>, sequence = 9) => {
    const pdu = new smpp.PDU(command, fields);
    pdu.sequence_number = sequence;
    return pdu;
  };
  const receipt = (fields: Record<string, unknown> = {}) =>
    library("deliver_sm", {
      source_addr: "447911123456",
      destination_addr: "SMSGateway",
      esm_class: 0x04,
      short_message:
        "id:abc-123 sub:001 dlvrd:001 submit date:2611221200 done date:2611221200 stat:DELIVRD err:000 text:",
      receipted_message_id: "abc-123",
      message_state: 2,
      ...fields,
    });
  const decodeBoth = (pdu: InstanceType<typeof smpp.PDU>) => {
    const { body, length } = bodyOf(pdu);
    return { hand: decodeHotPdu(body, length), library: new smpp.PDU(pdu.toBuffer()) };
  };

  it.each([
    ["accepted", { message_id: "0a1b2c3d" }, 0],
    ["refused, no message id", {}, smpp.errors.ESME_RTHROTTLED],
  ])("submit_sm_resp %s", (_, fields, status) => {
    const { hand, library: expected } = decodeBoth(
      library("submit_sm_resp", { ...fields, command_status: status }, 4242),
    );
    expect(hand).not.toBeNull();
    for (const key of ["command", "command_id", "command_status", "sequence_number", "message_id"])
      expect(hand?.[key]).toEqual(expected[key]);
    expect(hand?.isResponse()).toBe(true);
  });

  it.each([
    ["delivered", {}],
    [
      "undelivered with its error code",
      {
        message_state: 5,
        network_error_code: Buffer.from([3, 0, 11]),
        short_message: "id:abc-123 stat:UNDELIV err:011",
      },
    ],
  ])("a receipt, %s: the same fields and the same receipt", (_, fields) => {
    const { hand, library: expected } = decodeBoth(receipt(fields));
    expect(hand).not.toBeNull();
    for (const key of [...DECODED_FIELDS, "network_error_code"]) expect(hand?.[key]).toEqual(expected[key]);
    expect(parseReceipt(hand!)).toEqual(parseReceipt(expected));
    // Its answer is the package's own.
    expect(hand!.response().toBuffer().toString("hex")).toBe(expected.response().toBuffer().toString("hex"));
  });

  it.each([
    ["an inbound SMS (not a receipt)", library("deliver_sm", { source_addr: "447911123456", short_message: "Hello" })],
    [
      "a receipt without the TLVs",
      library("deliver_sm", { esm_class: 0x04, short_message: "id:abc-123 stat:DELIVRD err:000" }),
    ],
    ["a receipt with another TLV", receipt({ delivery_failure_reason: 1 })],
    ["UCS-2 text", receipt({ data_coding: 8, short_message: Buffer.from("0069", "hex") })],
    [
      "a data_sm with a message_payload and SAR options",
      library("data_sm", {
        source_addr: "447911123456",
        destination_addr: "SMSGateway",
        message_payload: Buffer.from("Hello"),
        sar_msg_ref_num: 0x1234,
        sar_total_segments: 2,
        sar_segment_seqnum: 1,
      }),
    ],
  ])("decodes %s with the message's bytes as they came, as the package reads the rest", (_, pdu) => {
    const { hand, library: expected } = decodeBoth(pdu);
    expect(hand).not.toBeNull();
    for (const key of [...DECODED_FIELDS, "sar_msg_ref_num", "sar_total_segments", "sar_segment_seqnum"]) {
      expect(hand?.[key]).toEqual(expected[key]);
    }
    const raw = (pdu.short_message ?? pdu.message_payload) as Buffer | string;
    const field = (hand!.short_message ?? hand!.message_payload) as { message: Buffer };
    expect(field.message).toEqual(Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
    expect(parseReceipt(hand!)).toEqual(parseReceipt(expected));
  });

  it("leaves an enquire_link to the package", () => {
    const { body, length } = bodyOf(library("enquire_link", {}));
    expect(decodeHotPdu(body, length)).toBeNull();
  });

  it("leaves a truncated PDU to the package", () => {
    const { body, length } = bodyOf(receipt());
    expect(decodeHotPdu(body.subarray(0, body.length - 3), length - 3)).toBeNull();
  });
});
