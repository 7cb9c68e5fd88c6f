// An inbound message's text from its bytes and data_coding (SMPP 3.4 section 5.2.19, 3GPP TS 23.038).
import type { InboundEncoding } from "#app/db/schema/inbound.ts";
import { decodeGsm7 } from "#app/modules/messaging/segments.ts";

/** The alphabet a data_coding value names; 8-bit data and unknown values read as Latin-1. */
export function alphabetOf(dataCoding: number): InboundEncoding {
  if (dataCoding === 0x00 || dataCoding === 0x01) return dataCoding === 0x00 ? "GSM-7" : "Latin-1";
  if (dataCoding === 0x08) return "UCS-2";
  // Data coding / message class group: bit 2 says 8-bit data, otherwise the default alphabet.
  if ((dataCoding & 0xf0) === 0xf0) return dataCoding & 0x04 ? "Latin-1" : "GSM-7";
  // General data coding groups: bits 3-2 name the alphabet.
  if ((dataCoding & 0xc0) === 0x00 && dataCoding >= 0x10) {
    const alphabet = (dataCoding >> 2) & 0x03;
    return alphabet === 0 ? "GSM-7" : alphabet === 2 ? "UCS-2" : "Latin-1";
  }
  // Message waiting groups: 0xE0 is UCS-2, 0xC0 and 0xD0 the default alphabet.
  if ((dataCoding & 0xf0) === 0xe0) return "UCS-2";
  if ((dataCoding & 0xe0) === 0xc0) return "GSM-7";
  return "Latin-1";
}

export function decodeInboundText(payload: Buffer, dataCoding: number): { text: string; encoding: InboundEncoding } {
  const encoding = alphabetOf(dataCoding);
  if (encoding === "GSM-7") return { text: decodeGsm7(payload), encoding };
  // UTF-16BE: an odd trailing byte (a broken part) is dropped rather than misread.
  if (encoding === "UCS-2")
    return {
      text: Buffer.from(payload.subarray(0, payload.length & ~1))
        .swap16()
        .toString("utf16le"),
      encoding,
    };
  return { text: payload.toString("latin1"), encoding };
}
