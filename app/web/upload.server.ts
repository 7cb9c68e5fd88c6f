/** An upload the form refuses before reading it: its message goes beside the file field, with `status`. */
export class UploadRefusedError extends Error {
  readonly status: 400 | 413;
  constructor(message: string, status: 400 | 413) {
    super(message);
    this.name = "UploadRefusedError";
    this.status = status;
  }
}

/** The request body is larger than the route accepts. */
class PayloadTooLargeError extends UploadRefusedError {
  constructor(maxBytes: number) {
    super(`The upload is larger than ${Math.floor(maxBytes / 1_000_000)} MB.`, 413);
    this.name = "PayloadTooLargeError";
  }
}

/** A cut-off or malformed multipart body (no boundary, a broken part): the browser did not send a whole form. */
class UnreadableUploadError extends UploadRefusedError {
  constructor() {
    super("The upload could not be read: choose the file again and upload it.", 400);
    this.name = "UnreadableUploadError";
  }
}

async function parsedForm(body: Request | Response): Promise<FormData> {
  try {
    return await body.formData();
  } catch {
    throw new UnreadableUploadError();
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
  if (!request.body) return parsedForm(request);
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
  return parsedForm(
    new Response(new Blob(chunks as BlobPart[]), {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }),
  );
}
