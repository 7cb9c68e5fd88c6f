// Image files for upload tests, byte by byte: well-formed ones of any declared size, and the
// hostile shapes an upload must refuse.
import { crc32 } from "node:zlib";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** One PNG chunk: length, type, data, CRC over type and data. */
export function pngChunk(type: string, data: Uint8Array | string = new Uint8Array()): Uint8Array<ArrayBuffer> {
  const body = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const chunk = new Uint8Array(12 + body.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, body.length);
  chunk.set(new TextEncoder().encode(type), 4);
  chunk.set(body, 8);
  view.setUint32(8 + body.length, crc32(chunk.subarray(4, 8 + body.length)));
  return chunk;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A structurally valid PNG declaring width x height (the pixel data is not decoded by the
 * server): IHDR, `extra` chunks, IDAT, IEND. `length` pads it to that many bytes with a private
 * ancillary chunk of zeros.
 */
export function png(
  width: number,
  height: number,
  options: { extra?: Uint8Array[]; length?: number } = {},
): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const head = [new Uint8Array(PNG_SIGNATURE), pngChunk("IHDR", ihdr), ...(options.extra ?? [])];
  const tail = [
    pngChunk("IDAT", new Uint8Array([0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])),
    pngChunk("IEND"),
  ];
  const size = [...head, ...tail].reduce((n, p) => n + p.length, 0);
  const padding = options.length === undefined ? [] : [pngChunk("paDd", new Uint8Array(options.length - size - 12))];
  return concat([...head, ...padding, ...tail]);
}

/** SOI, APP0, a start-of-frame declaring the size, a scan with a little entropy-coded data, EOI. */
export function jpeg(
  width: number,
  height: number,
  frameMarker = 0xc0,
  extraSegments: number[][] = [],
): Uint8Array<ArrayBuffer> {
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ];
  const sof = [
    0xff,
    frameMarker,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  const sos = [0xff, 0xda, 0x00, 0x0c, 0x03, 1, 0x00, 2, 0x11, 3, 0x11, 0x00, 0x3f, 0x00];
  // Entropy-coded data with a stuffed 0xFF00 and a restart marker, as real files have.
  const scan = [0x12, 0x34, 0xff, 0x00, 0x56, 0xff, 0xd0, 0x78];
  return new Uint8Array([0xff, 0xd8, ...app0, ...extraSegments.flat(), ...sof, ...sos, ...scan, 0xff, 0xd9]);
}

/** A JPEG comment segment (COM) holding `text`. */
export function jpegComment(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [0xff, 0xfe, (bytes.length + 2) >> 8, (bytes.length + 2) & 0xff, ...bytes];
}

export const appended = (image: Uint8Array, text: string) => concat([image, new TextEncoder().encode(text)]);
