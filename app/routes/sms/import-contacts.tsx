import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { Form, href, Link, useNavigation } from "react-router";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { CheckboxField, Field, FormErrors, SelectField } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { importContactsAction } from "#app/routes/sms/import-contacts.server.ts";
import { describeImport, IMPORT_FIELDS, ImportMappingSchema } from "#app/modules/contacts/import.ts";
import {
  getImportReport,
  ImportFileError,
  type ImportPreview,
  listPendingUploads,
  type PendingUpload,
  previewImport,
} from "#app/modules/contacts/import.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber, pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/import-contacts";

export const meta: Route.MetaFunction = () => [{ title: "Import Contacts | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const maxMb = Math.floor(getEnv().CSV_IMPORT_MAX_BYTES / 1_000_000);
  const token = params.get("file");
  if (token) {
    let preview: ImportPreview | null;
    try {
      preview = await previewImport(user.id, token);
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      return { view: "upload" as const, maxMb, error: error.message, pending: await listPendingUploads(user.id) };
    }
    if (!preview) throw notFound();
    return { view: "preview" as const, preview };
  }
  const reportId = params.get("report");
  if (reportId) {
    const report = await getImportReport(user.id, Number(reportId) || 0);
    if (!report) throw notFound();
    return { view: "report" as const, report };
  }
  return { view: "upload" as const, maxMb, error: null, pending: await listPendingUploads(user.id) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return importContactsAction(request, user.id);
}

/** Uploads not yet imported or discarded: each opens its preview, where it is imported or cancelled. */
function PendingUploads({ pending }: { pending: PendingUpload[] }) {
  if (pending.length === 0) return null;
  return (
    <section className="mb-6 max-w-2xl">
      <h2 className="mb-2 text-lg font-semibold text-slate-900">Files waiting to be imported</h2>
      <ul className="list-disc space-y-1 pl-5 text-sm">
        {pending.map((upload) => (
          <li key={upload.token}>
            <Link to={`${href("/sms/importContacts")}?file=${upload.token}`}>{upload.fileName}</Link>{" "}
            <span className="text-slate-600">(open it to import or cancel it)</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function UploadForm({ maxMb, error }: { maxMb: number; error: string | null }) {
  const navigation = useNavigation();
  return (
    <Card className="max-w-2xl">
      <Form method="post" encType="multipart/form-data" className="space-y-4">
        <input type="hidden" name="intent" value="upload" />
        <Field
          label="CSV file"
          inputProps={{
            type: "file",
            name: "file",
            accept: ".csv,text/csv,text/plain",
            required: true,
            className: "py-1.5",
          }}
          errors={error ? [error] : undefined}
          help={`Up to ${maxMb} MB. Comma, semicolon or tab separated; UTF-8 or Windows-1252.`}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={navigation.state === "submitting"}>
            Upload and preview
          </Button>
          <ButtonLink to={href("/sms/accountContacts")} variant="secondary">
            Contacts
          </ButtonLink>
        </div>
      </Form>
      <ul className="mt-6 list-disc space-y-1 pl-5 text-sm text-slate-600">
        <li>
          On the next screen you choose which column holds the name, phone number, email and (optionally) group and time
          zone.
        </li>
        <li>
          Every row needs a name, a valid phone number and a valid email address, as on the Create Contact screen.
        </li>
        <li>A phone number you already have updates that contact's name and email instead of adding a second one.</li>
        <li>
          A group column adds the contact to that group (several separated by ; or |); missing groups are created.
        </li>
        <li>
          An optional time zone column (e.g. Europe/Berlin) is used for quiet hours; empty keeps the contact's zone.
        </li>
      </ul>
    </Card>
  );
}

function MappingForm({
  preview,
  lastResult,
}: {
  preview: ImportPreview;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const { guess } = preview;
  const [form, fields] = useForm({
    id: "import-mapping",
    lastResult,
    defaultValue: {
      hasHeader: guess.hasHeader ? "on" : undefined,
      name: guess.name?.toString(),
      phone: guess.phone?.toString(),
      email: guess.email?.toString(),
      group: guess.group?.toString(),
      timeZone: guess.timeZone?.toString(),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ImportMappingSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle";
  return (
    <Card>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="import" />
        <input type="hidden" name="token" value={preview.token} />
        <CheckboxField
          label="The first row holds column names (do not import it)"
          inputProps={getInputProps(fields.hasHeader, { type: "checkbox" })}
        />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {IMPORT_FIELDS.map(({ key, label, required }) => (
            <SelectField key={key} label={label} selectProps={getSelectProps(fields[key])} errors={fields[key].errors}>
              <option value="">{required ? "Choose a column" : "Not in the file"}</option>
              {preview.columns.map((column, index) => (
                <option key={column} value={index}>
                  {column}
                </option>
              ))}
            </SelectField>
          ))}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            Import Contacts
          </Button>
          {/* Submits the discard form below (no validation of the mapping needed to cancel). */}
          <Button type="submit" form="discard-import" variant="secondary" disabled={busy}>
            Cancel
          </Button>
        </div>
      </Form>
      <Form method="post" id="discard-import">
        <input type="hidden" name="intent" value="discard" />
        <input type="hidden" name="token" value={preview.token} />
      </Form>
    </Card>
  );
}

function Preview({
  preview,
  lastResult,
}: {
  preview: ImportPreview;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-700">
        <strong>{preview.fileName}</strong>: {pluralize(preview.rows, "row")}. The first rows:
      </p>
      <Table>
        <caption className="sr-only">The first rows of the file</caption>
        <thead>
          <tr>
            <Th>Row</Th>
            {preview.columns.map((column) => (
              <Th key={column}>{column}</Th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {preview.sample.map((cells, row) => (
            <tr key={row}>
              <Td className="text-slate-500">{row + 1}</Td>
              {preview.columns.map((column, i) => (
                <Td key={column} className="break-all">
                  {cells[i] ?? ""}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
      <MappingForm preview={preview} lastResult={lastResult} />
    </div>
  );
}

function Report({ report }: { report: Extract<Route.ComponentProps["loaderData"], { view: "report" }>["report"] }) {
  const listed = report.skippedRows.length;
  return (
    <div className="space-y-6">
      <Notice tone={report.skipped > 0 ? "warning" : "success"}>
        <p data-testid="import-summary">{describeImport(report, "summary")}</p>
      </Notice>
      {listed > 0 ? (
        <section>
          <h2 className="mb-2 text-lg font-semibold text-slate-900">Skipped rows</h2>
          {report.skipped > listed ? (
            <p className="mb-2 text-sm text-slate-600">The first {formatNumber(listed)}:</p>
          ) : null}
          <Table>
            <thead>
              <tr>
                <Th>Row</Th>
                <Th>Reason</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {report.skippedRows.map((skip) => (
                <tr key={skip.row} data-testid="skipped-row">
                  <Td className="whitespace-nowrap">{skip.row}</Td>
                  <Td>{skip.reason}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </section>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <ButtonLink to={href("/sms/accountContacts")}>Contacts</ButtonLink>
        <ButtonLink to={href("/sms/importContacts")} variant="secondary">
          Import another file
        </ButtonLink>
      </div>
    </div>
  );
}

export default function ImportContacts({ loaderData, actionData }: Route.ComponentProps) {
  const uploadError = actionData && "uploadError" in actionData ? actionData.uploadError : null;
  const lastResult = actionData && !("uploadError" in actionData) ? actionData : undefined;
  return (
    <div>
      <PageHeader subtitle="Contacts" title="Import Contacts" />
      {loaderData.view === "preview" ? (
        <Preview preview={loaderData.preview} lastResult={lastResult} />
      ) : loaderData.view === "report" ? (
        <Report report={loaderData.report} />
      ) : (
        <>
          <PendingUploads pending={loaderData.pending} />
          <UploadForm maxMb={loaderData.maxMb} error={uploadError ?? loaderData.error} />
        </>
      )}
    </div>
  );
}
