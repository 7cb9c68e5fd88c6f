// The hand-encoded PDUs must be byte for byte what the smpp package would send.
import smpp from "smpp";
import { describe, expect, it } from "vitest";
import { deliverSmResp, submitSm, type SubmitSmFields } from "../../app/modules/sms/transports/smpp-pdu.server.ts";

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

function libraryBytes(fields: SubmitSmFields, sequence: number): Buffer {
  const pdu = new smpp.PDU("submit_sm", { ...fields });
  pdu.sequence_number = sequence;
  return pdu.toBuffer();
}

describe("submit_sm", () => {
  it.each([
    ["GSM-7 from an alphanumeric sender", base],
    ["UCS-2 from an international number", { ...base, source_addr_ton: 1, source_addr_npi: 1, source_addr: "15550100", data_coding: 8, short_message: Buffer.from("0048006900200d83dde00", "hex") }],
    ["a concatenated part with its UDH", { ...base, esm_class: 0x40, short_message: Buffer.concat([Buffer.from([5, 0, 3, 7, 2, 1]), Buffer.alloc(134, 0x41)]) }],
    ["an empty message and reference 0", { ...base, short_message: Buffer.alloc(0), user_message_reference: 0 }],
  ])("%s", (_, fields) => {
    const pdu = submitSm(fields);
    pdu.sequence_number = 123456;
    expect(pdu.isResponse()).toBe(false);
    expect(pdu.toBuffer().toString("hex")).toBe(libraryBytes(fields, 123456).toString("hex"));
    // And the package reads back what was written.
    const read = new smpp.PDU(pdu.toBuffer());
    expect(read).toMatchObject({ command: "submit_sm", sequence_number: 123456, destination_addr: fields.destination_addr, user_message_reference: fields.user_message_reference });
  });

  it("refuses a message too long for short_message", () => {
    expect(() => submitSm({ ...base, short_message: Buffer.alloc(255) })).toThrow(RangeError);
  });
});

describe("deliver_sm_resp", () => {
  it.each([0, smpp.errors.ESME_RX_T_APPN])("status %i", (status) => {
    const request = new smpp.PDU("deliver_sm", { sequence_number: 77 });
    request.sequence_number = 77;
    const expected = request.response({ command_status: status }).toBuffer();
    const pdu = deliverSmResp(77, status);
    expect(pdu.isResponse()).toBe(true);
    expect(pdu.sequence_number).toBe(77);
    expect(pdu.toBuffer().toString("hex")).toBe(expected.toString("hex"));
  });
});
