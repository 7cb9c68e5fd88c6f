import { describe, expect, it } from "vitest";
import { alphabetOf, decodeInboundText } from "#app/modules/inbound/text.server.ts";
import { decodeGsm7, encodeGsm7 } from "#app/modules/messaging/segments.ts";

describe("inbound text by data_coding", () => {
  it("reads GSM-7 septets back, the extension table included", () => {
    const text = "@£$¥ Hello {world} [€5] ~^|\\ ÄÖÑÜ§¿äöñüà";
    expect(decodeGsm7(encodeGsm7(text))).toBe(text);
    // An escape to an undefined extension reads as the basic character.
    expect(decodeGsm7(Uint8Array.from([0x1b, 0x41]))).toBe("A");
  });

  it("names the alphabet of each data_coding value", () => {
    expect([0x00, 0x01, 0x03, 0x04, 0x08, 0xf0, 0xf4, 0x18, 0x10, 0x14, 0xe0, 0xc0].map(alphabetOf)).toEqual([
      "GSM-7",
      "Latin-1",
      "Latin-1",
      "Latin-1",
      "UCS-2",
      "GSM-7",
      "Latin-1",
      "UCS-2",
      "GSM-7",
      "Latin-1",
      "UCS-2",
      "GSM-7",
    ]);
  });

  it("decodes UCS-2 as UTF-16BE, an emoji included, and Latin-1 byte for byte", () => {
    const ucs2 = Buffer.from("Привет 👋", "utf16le").swap16();
    expect(decodeInboundText(ucs2, 0x08)).toEqual({ text: "Привет 👋", encoding: "UCS-2" });
    expect(decodeInboundText(Buffer.from("café", "latin1"), 0x03)).toEqual({ text: "café", encoding: "Latin-1" });
  });
});
