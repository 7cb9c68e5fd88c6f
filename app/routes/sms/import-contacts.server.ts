// The Import Contacts screen's forms, told apart by `intent`: upload a file, discard it, or import
// it with a column mapping. Answers with a redirect (and toast) or the errors for the screen.
import { parseWithZod } from "#app/web/forms.ts";
import { data, href, redirect } from "react-router";
import { getEnv } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { readFormDataWithLimit, UploadRefusedError } from "#app/web/upload.server.ts";
import { QuotaExceededError } from "#app/modules/quotas/quotas.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { describeImport, ImportMappingSchema } from "#app/modules/contacts/import.ts";
import {
  discardImportUpload,
  ImportFileError,
  runImport,
  saveImportUpload,
} from "#app/modules/contacts/import.server.ts";
import { CONTACTS_PATH } from "#app/web/contact-lists.ts";

/** The upload form's error, shown beside its file field. */
type UploadFailure = { uploadError: string };

const uploadsPerHour = (): Limit => ({
  name: "csv-upload",
  limit: getEnv().CSV_IMPORT_UPLOADS_PER_HOUR,
  windowMs: 3600_000,
});

async function upload(formData: FormData, userId: number) {
  const fail = (message: string) => data<UploadFailure>({ uploadError: message }, { status: 400 });
  const file = formData.get("file");
  if (!(file instanceof File) || file.size === 0) return fail("Choose a CSV file to upload.");
  // Every attempt counts, refused files too: reading them is the work this limit bounds.
  const rate = await hit(uploadsPerHour(), String(userId));
  if (!rate.allowed) {
    const minutes = Math.ceil(rate.retryAfterSeconds / 60);
    return data<UploadFailure>(
      {
        uploadError:
          `You have uploaded ${pluralize(getEnv().CSV_IMPORT_UPLOADS_PER_HOUR, "file")} in the last hour, the most allowed. ` +
          `Try again in ${pluralize(minutes, "minute")}.`,
      },
      { status: 429, headers: { "Retry-After": String(rate.retryAfterSeconds) } },
    );
  }
  try {
    const token = await saveImportUpload(userId, file.name, new Uint8Array(await file.arrayBuffer()));
    return redirect(`${href("/sms/importContacts")}?file=${token}`);
  } catch (error) {
    if (error instanceof ImportFileError || error instanceof QuotaExceededError) return fail(error.message);
    throw error;
  }
}

/** Upload (to the preview), discard (back to the contacts) or import (to the report); another user's upload is a 404. */
export async function importContactsAction(request: Request, userId: number) {
  let formData: FormData;
  try {
    formData = await readFormDataWithLimit(request, getEnv().CSV_IMPORT_MAX_BYTES);
  } catch (error) {
    if (error instanceof UploadRefusedError)
      return data<UploadFailure>({ uploadError: error.message }, { status: error.status });
    throw error;
  }
  const intent = formData.get("intent");
  if (intent === "upload") return upload(formData, userId);
  if (intent === "discard") {
    await discardImportUpload(userId, String(formData.get("token") ?? ""));
    return redirect(CONTACTS_PATH);
  }
  const submission = parseWithZod(formData, { schema: ImportMappingSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { token, hasHeader, name, phone, email, group, timeZone } = submission.value;
  let report;
  try {
    report = await runImport(userId, token, { hasHeader, name, phone, email, group, timeZone });
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound();
    throw error;
  }
  return redirectWithToast(`${href("/sms/importContacts")}?report=${report.id}`, {
    description: describeImport(report, "short"),
  });
}
