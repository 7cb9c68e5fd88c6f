/** The request body is larger than the route accepts. */
export class PayloadTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`The upload is larger than ${Math.floor(maxBytes / 1_000_000)} MB.`);
    this.name = "PayloadTooLargeError";
  }
}

/** Multipart headers and boundaries around a file: room for them on top of the file's own limit. */
const FORM_OVERHEAD_BYTES = 16 * 1024;

/**
 * Reads a (multipart) form body, refusing it as soon as it passes `maxFileBytes` plus the form's
 * overhead, so an oversized upload is never held in memory whole.
 */
export async function readFormDataWithLimit(request: Request, maxFileBytes: number): Promise<FormData> {
  const limit = maxFileBytes + FORM_OVERHEAD_BYTES;
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) throw new PayloadTooLargeError(maxFileBytes);
  if (!request.body) return request.formData();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new PayloadTooLargeError(maxFileBytes);
    }
    chunks.push(value);
  }
  return new Response(new Blob(chunks as BlobPart[]), {
    headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
  }).formData();
}
