import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type FileUpload,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { env } from "../../utils/env.server.ts";
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, IMAGE_MESSAGES } from "./packages.ts";

const PUBLIC_PREFIX = "/uploads/packages/";
const uploadsDir = () => resolve(env.DATA_DIR, "uploads", "packages");

/**
 * Reads a package form. The parser stops as soon as any part grows past the image limit, so an
 * oversized upload is refused while it streams in and at most ~1 MB is ever held in memory.
 */
export async function parsePackageFormData(request: Request): Promise<{ formData: FormData } | { tooLarge: true }> {
  try {
    const formData = await parseFormData(
      request,
      { maxFiles: 1, maxFileSize: MAX_IMAGE_BYTES - 1, maxParts: 20, maxTotalSize: MAX_IMAGE_BYTES + 64 * 1024 },
      // An empty file part is what a browser sends when no file was chosen.
      (file: FileUpload) => (file.fieldName === "image" && file.size > 0 ? file : null),
    );
    return { formData };
  } catch (error) {
    if (
      error instanceof MaxFileSizeExceededError ||
      error instanceof MaxTotalSizeExceededError ||
      error instanceof MaxFilesExceededError
    ) {
      return { tooLarge: true };
    }
    throw error;
  }
}

export type ImageInfo = { type: "png" | "jpeg"; width: number; height: number };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngInfo(bytes: Uint8Array): ImageInfo | null {
  if (bytes.length < 24 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The first chunk must be IHDR: width and height are its first two 32-bit fields.
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  return { type: "png", width: view.getUint32(16), height: view.getUint32(20) };
}

// Start-of-frame markers carry the dimensions (C4, C8 and CC are other segments).
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpegInfo(bytes: Uint8Array): ImageInfo | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = view.getUint16(offset + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) return null;
      return { type: "jpeg", height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return null; // image data before any frame header
    offset += 2 + length;
  }
  return null;
}

/** The image's real type and size from its bytes (never its name or declared type), or the spec's error. */
export function inspectImage(bytes: Uint8Array): { ok: true; info: ImageInfo } | { ok: false; error: string } {
  const info = pngInfo(bytes) ?? jpegInfo(bytes);
  if (!info) return { ok: false, error: IMAGE_MESSAGES.type };
  if (info.width < 1 || info.height < 1 || info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE) {
    return { ok: false, error: IMAGE_MESSAGES.dimensions };
  }
  return { ok: true, info };
}

/** Stores a checked image under DATA_DIR/uploads with a name we make; returns its public path. */
export async function storePackageImage(bytes: Uint8Array, info: ImageInfo): Promise<string> {
  const dir = uploadsDir();
  mkdirSync(dir, { recursive: true });
  const name = `${randomUUID()}.${info.type === "png" ? "png" : "jpg"}`;
  await writeFile(resolve(dir, name), bytes, { flag: "wx", mode: 0o644 });
  return `${PUBLIC_PREFIX}${name}`;
}

/** Removes an uploaded image (never a file shipped in public/). */
export async function removePackageImage(publicPath: string): Promise<void> {
  if (!publicPath.startsWith(PUBLIC_PREFIX)) return;
  const name = publicPath.slice(PUBLIC_PREFIX.length);
  if (!/^[0-9a-f-]{36}\.(png|jpg)$/.test(name)) return;
  await rm(resolve(uploadsDir(), name), { force: true });
}
