import smpp from "smpp";
import { describe, expect, it } from "vitest";
import { concatUdh, parseReceipt, parseSmppUrl } from "#app/modules/sms/transports/smpp.server.ts";

/** A deliver_sm as the client library hands it over: encoded to bytes and decoded again. */
function received(fields: Record<string, unknown>) {
  return new smpp.PDU(new smpp.PDU("deliver_sm", fields).toBuffer());
}

const text = (id: string, stat: string, err = "000") =>
  Buffer.from(
    `id:${id} sub:001 dlvrd:001 submit date:2601011200 done date:2601011201 stat:${stat} err:${err} text:hello`,
    "ascii",
  );

describe("parseReceipt", () => {
  it("reads id, stat and err from the text, byte for byte, even where GSM and ASCII differ", () => {
    const pdu = received({ esm_class: 0x04, data_coding: 0, short_message: text("a_b@$1", "UNDELIV", "034") });
    expect(parseReceipt(pdu)).toEqual({ providerId: "a_b@$1", status: "undelivered", error: "034" });
  });

  it("prefers the receipted_message_id TLV and falls back to message_state", () => {
    const pdu = received({
      esm_class: 0x04,
      short_message: Buffer.from("no fields here", "ascii"),
      receipted_message_id: "FF01",
      message_state: 2,
    });
    expect(parseReceipt(pdu)).toEqual({ providerId: "FF01", status: "delivered", error: null });
  });

  it("maps the stat values, anything else to unknown", () => {
    const status = (stat: string) =>
      parseReceipt(received({ esm_class: 0x04, short_message: text("1", stat) }))?.status;
    expect(["DELIVRD", "UNDELIV", "EXPIRED", "REJECTD", "ENROUTE", "ACCEPTD", "DELETED"].map(status)).toEqual([
      "delivered",
      "undelivered",
      "expired",
      "rejected",
      "unknown",
      "unknown",
      "unknown",
    ]);
  });

  it("ignores a deliver_sm that is not a receipt (an inbound SMS)", () => {
    expect(parseReceipt(received({ esm_class: 0x00, short_message: text("1", "DELIVRD") }))).toBeNull();
  });
});

describe("SMPP helpers", () => {
  it("reads SMPP_URL", () => {
    expect(parseSmppUrl("smpp://sys%40id:p%3Ass@smsc.example:2776")).toEqual({
      host: "smsc.example",
      port: 2776,
      tls: false,
      systemId: "sys@id",
      password: "p:ss",
    });
    expect(parseSmppUrl("ssmpp://a:b@h").port).toBe(3550);
  });

  it("builds the 8-bit reference concatenation UDH", () => {
    expect([...concatUdh(0x1ff, 3, 2)]).toEqual([0x05, 0x00, 0x03, 0xff, 3, 2]);
  });
});
