import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { storedImages } from "#app/db/schema/shop.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { IMAGE_MESSAGES, MAX_IMAGE_SIDE } from "#app/modules/shop/packages.ts";

const PUBLIC_PREFIX = "/uploads/packages/";
// Where images were files before they moved to the database (decision 132); removed with their package.
const uploadsDir = () => resolve(getEnv().DATA_DIR, "uploads", "packages");

export type ImageInfo = { type: "png" | "jpeg"; width: number; height: number };

// The file is a PNG or JPEG by its signature, but not only a picture: a chunk or segment that does
// not add up, a wrong checksum, or bytes after the image's end (where a polyglot keeps its payload).
const DAMAGED = "damaged";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ascii = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** Walks every chunk: IHDR first, each CRC right, IDAT present, IEND last and the file's last byte. */
function pngInfo(bytes: Uint8Array): ImageInfo | typeof DAMAGED | null {
  if (bytes.length < 8 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let info: ImageInfo | null = null;
  let hasData = false;
  for (let offset = 8; offset + 12 <= bytes.length;) {
    const length = view.getUint32(offset);
    const type = ascii(bytes.subarray(offset + 4, offset + 8));
    const end = offset + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end > bytes.length) return DAMAGED;
    if (crc32(bytes.subarray(offset + 4, end - 4)) !== view.getUint32(end - 4)) return DAMAGED;
    if (info === null) {
      if (type !== "IHDR" || length !== 13) return DAMAGED;
      info = { type: "png", width: view.getUint32(offset + 8), height: view.getUint32(offset + 12) };
    }
    if (type === "IDAT") hasData = true;
    if (type === "IEND") return end === bytes.length && hasData ? info : DAMAGED;
    offset = end;
  }
  return DAMAGED;
}

// Start-of-frame markers carry the dimensions (C4, C8 and CC are other segments).
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

/** Walks every segment and scan to EOI, which must end the file (zero padding aside). */
function jpegInfo(bytes: Uint8Array): ImageInfo | typeof DAMAGED | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let info: ImageInfo | null = null;
  let scanned = false;
  let offset = 2;
  while (offset + 2 <= bytes.length) {
    if (bytes[offset] !== 0xff) return DAMAGED;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      const rest = bytes.subarray(offset + 2);
      return info && scanned && rest.every((b) => b === 0) ? info : DAMAGED;
    }
    if (marker === 0x01 || isRestart(marker)) {
      offset += 2; // markers without a length
      continue;
    }
    if (marker === 0xd8 || offset + 4 > bytes.length) return DAMAGED;
    const length = view.getUint16(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return DAMAGED;
    if (isStartOfFrame(marker) && !info) {
      if (length < 7) return DAMAGED;
      info = { type: "jpeg", height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + length;
    if (marker === 0xda) {
      if (!info) return DAMAGED; // image data before any frame header
      scanned = true;
      // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
      while (
        offset + 1 < bytes.length &&
        !(bytes[offset] === 0xff && bytes[offset + 1] !== 0 && !isRestart(bytes[offset + 1]))
      )
        offset += 1;
    }
  }
  return DAMAGED;
}

// What a browser or a server-side interpreter would read as a document or code, anywhere in the
// file (metadata chunks, comments, trailing bytes). Each is long enough that compressed pixel data
// holds one by chance only about once in 10^11 bytes.
const MARKUP =
  /<(?:script|html|\?php|svg[\s/>]|!doctype|iframe|body|head|object|embed|style|meta|form|\?xml-stylesheet)|javascript:/i;

function holdsMarkup(bytes: Uint8Array): boolean {
  return MARKUP.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/**
 * The image's real type and size from its bytes (never its name or declared type), or the error to
 * show: not a PNG or JPEG (an SVG or HTML renamed .png too); damaged or with bytes after its end
 * (a polyglot); a side over MAX_IMAGE_SIDE; markup or script text anywhere in it.
 */
export function inspectImage(bytes: Uint8Array): { ok: true; info: ImageInfo } | { ok: false; error: string } {
  const info = pngInfo(bytes) ?? jpegInfo(bytes);
  if (!info) return { ok: false, error: IMAGE_MESSAGES.type };
  if (info === DAMAGED) return { ok: false, error: IMAGE_MESSAGES.damaged };
  if (info.width < 1 || info.height < 1 || info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE) {
    return { ok: false, error: IMAGE_MESSAGES.dimensions };
  }
  if (holdsMarkup(bytes)) return { ok: false, error: IMAGE_MESSAGES.markup };
  return { ok: true, info };
}

const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg)$/;

/** Whether `name` is one storePackageImage makes: a UUID and the extension of the type its bytes were checked to be. */
export const isStoredImageName = (name: string): boolean => STORED_NAME.test(name);

/** Stores a checked image in the database (stored_images) under a name we make; returns its public path. */
export async function storePackageImage(bytes: Uint8Array, info: ImageInfo): Promise<string> {
  const name = `${randomUUID()}.${info.type === "png" ? "png" : "jpg"}`;
  await withTx((tx) =>
    tx
      .insert(storedImages)
      .values({
        name,
        contentType: info.type === "png" ? "image/png" : "image/jpeg",
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        createdAt: clock.date(),
      })
      .run(),
  );
  return `${PUBLIC_PREFIX}${name}`;
}

export type StoredImage = { contentType: string; bytes: Buffer; createdAt: Date };

/** The image stored under `name` (`<uuid>.png|jpg`), or null: then it may be a file from before decision 132. */
export async function readStoredImage(name: string): Promise<StoredImage | null> {
  if (!isStoredImageName(name)) return null;
  const image = await getDb()
    .select({ contentType: storedImages.contentType, bytes: storedImages.bytes, createdAt: storedImages.createdAt })
    .from(storedImages)
    .where(eq(storedImages.name, name))
    .get();
  return image ?? null;
}

/** Removes an uploaded image, and its file if it was stored before decision 132 (never a file shipped in public/). */
export async function removePackageImage(publicPath: string): Promise<void> {
  if (!publicPath.startsWith(PUBLIC_PREFIX)) return;
  const name = publicPath.slice(PUBLIC_PREFIX.length);
  if (!isStoredImageName(name)) return;
  await withTx((tx) => tx.delete(storedImages).where(eq(storedImages.name, name)).run());
  await rm(resolve(uploadsDir(), name), { force: true });
}
