// The package form's request body, read before the action validates it (Menu Item Upsert).
import {
  type FileUpload,
  FormDataParseError,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { MAX_IMAGE_BYTES } from "#app/modules/shop/packages.ts";

/**
 * Reads a package form. The parser stops as soon as any part grows past the image limit, so an
 * oversized upload is refused while it streams in and at most ~1 MB is ever held in memory. A body
 * that is not a well-formed form (cut off, no boundary, more parts than the form has) is `unreadable`.
 */
export async function parsePackageFormData(
  request: Request,
): Promise<{ formData: FormData } | { tooLarge: true } | { unreadable: true }> {
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
    if (
      error instanceof FormDataParseError ||
      error instanceof MultipartParseError ||
      error instanceof MaxPartsExceededError ||
      error instanceof MaxHeaderSizeExceededError
    )
      return { unreadable: true };
    throw error;
  }
}
