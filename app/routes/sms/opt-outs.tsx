import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href } from "react-router";
import { z } from "zod";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { RowActionForm } from "#app/components/ui/row-action-form.tsx";
import { ErrorList, Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { ActionsTh, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { readOptOutCsv } from "#app/modules/opt-outs/csv.ts";
import { KeywordOptOutError, OptOutNotFoundError } from "#app/modules/opt-outs/errors.ts";
import { addOptOuts, listOptOuts, removeOptOut } from "#app/modules/opt-outs/opt-outs.server.ts";
import { phoneField } from "#app/modules/messaging/phone.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import { positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { readFormDataWithLimit, UploadRefusedError } from "#app/web/upload.server.ts";
import type { Route } from "./+types/opt-outs";

export const meta: Route.MetaFunction = () => [{ title: "Opt-outs | SMS Gateway" }];

const addSchema = (country: Parameters<typeof phoneField>[0]) =>
  z.object({ intent: z.literal("add"), phoneNumber: phoneField(country) });
const RemoveSchema = z.object({ intent: z.literal("remove"), id: z.coerce.number().int().positive() });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const list = await listOptOuts(user.id, positiveIntParam(new URL(request.url).searchParams, "page") ?? 1);
  return {
    ...list,
    items: list.items.map((o) => ({ ...o, createdAt: o.createdAt.getTime() })),
    sharedSender: getEnv().SMPP_SOURCE_ADDR,
    timeZone: user.timeZone,
  };
}

type UploadResult = { uploadError: string };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  let formData: FormData;
  try {
    formData = await readFormDataWithLimit(request, getEnv().CSV_IMPORT_MAX_BYTES);
  } catch (error) {
    if (error instanceof UploadRefusedError)
      return data<UploadResult>({ uploadError: error.message }, { status: error.status });
    throw error;
  }
  const intent = formData.get("intent");
  if (intent === "remove") {
    const submission = parseWithZod(formData, { schema: RemoveSchema });
    if (submission.status !== "success") throw notFound();
    try {
      const removed = await removeOptOut(user.id, submission.value.id);
      return redirectWithToast(href("/sms/optOuts"), { description: `${removed.phone} removed from your opt-outs.` });
    } catch (error) {
      if (error instanceof OptOutNotFoundError) throw notFound();
      if (error instanceof KeywordOptOutError)
        return redirectWithToast(href("/sms/optOuts"), { type: "error", description: error.message });
      throw error;
    }
  }
  if (intent === "import") {
    const file = formData.get("file");
    if (!(file instanceof File) || file.size === 0)
      return data<UploadResult>({ uploadError: "Choose a CSV file with one phone number per line." }, { status: 400 });
    const { phones, invalid } = readOptOutCsv(await file.text(), getEnv().DEFAULT_COUNTRY);
    if (phones.length === 0)
      return data<UploadResult>({ uploadError: "No valid phone number found in the file." }, { status: 400 });
    const added = await addOptOuts(user.id, phones, "csv");
    const skipped = invalid > 0 ? `; ${pluralize(invalid, "line")} skipped (not a valid number)` : "";
    return redirectWithToast(href("/sms/optOuts"), {
      description: `${pluralize(added, "number")} added to your opt-outs${skipped}.`,
    });
  }
  const submission = parseWithZod(formData, { schema: addSchema(getEnv().DEFAULT_COUNTRY) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await addOptOuts(user.id, [submission.value.phoneNumber], "manual");
  return redirectWithToast(href("/sms/optOuts"), {
    description: `${submission.value.phoneNumber} added: your messages to it will be refused.`,
  });
}

const SOURCE_LABELS = { keyword: "Replied", manual: "Added by hand", csv: "Added by CSV" } as const;

function pageHref(page: number) {
  return page > 1 ? `${href("/sms/optOuts")}?page=${page}` : href("/sms/optOuts");
}

export default function OptOuts({ loaderData, actionData }: Route.ComponentProps) {
  const { items, page, totalPages, total, sharedSender, timeZone } = loaderData;
  const uploadError = actionData && "uploadError" in actionData ? actionData.uploadError : null;
  const lastResult = actionData && !("uploadError" in actionData) ? actionData : undefined;
  const [form, fields] = useForm({ id: "add-opt-out", lastResult, shouldValidate: "onSubmit" });
  return (
    <div className="space-y-6">
      <PageHeader title="Opt-outs" subtitle="Numbers your messages will not go to" />
      <p className="text-sm text-slate-700">
        A phone that replies STOP (or UNSUBSCRIBE, CANCEL, END, QUIT, ...) to one of your senders gets nothing more from
        that sender until it replies START; only that phone can lift it. Numbers you add here are refused from all your
        senders until you remove them. A send to any of them is refused and costs nothing.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Add a number</h2>
          <Form method="post" className="mt-3 space-y-3" {...getFormProps(form)} noValidate>
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field
              label="Phone Number"
              inputProps={{ ...getInputProps(fields.phoneNumber, { type: "tel" }), autoComplete: "off" }}
              errors={fields.phoneNumber.errors}
            />
            <Button type="submit" name="intent" value="add">
              Add to opt-outs
            </Button>
          </Form>
        </Card>
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Add numbers from a CSV file</h2>
          <Form method="post" encType="multipart/form-data" className="mt-3 space-y-3">
            <div>
              <label htmlFor="opt-out-file" className="block text-sm font-medium text-slate-700">
                CSV file (one number per line, first column)
              </label>
              <input
                id="opt-out-file"
                name="file"
                type="file"
                accept=".csv,.txt,text/csv,text/plain"
                aria-invalid={uploadError ? true : undefined}
                aria-describedby={uploadError ? "opt-out-file-error" : undefined}
                className="mt-1 block w-full text-sm"
              />
              <ErrorList id="opt-out-file-error" errors={uploadError ? [uploadError] : undefined} />
            </div>
            <Button type="submit" name="intent" value="import" variant="secondary">
              Upload
            </Button>
          </Form>
        </Card>
      </div>
      {items.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No opt-outs yet.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Opt-outs, newest first</caption>
          <thead>
            <tr>
              <Th>Phone</Th>
              <Th>How</Th>
              <Th>Sender</Th>
              <Th>Since ({timeZone})</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.map((o) => (
              <tr key={o.id} data-testid="opt-out-row">
                <Td className="whitespace-nowrap font-medium">{o.phone}</Td>
                <Td>
                  <Badge tone={o.source === "keyword" ? "warning" : "neutral"}>
                    {o.source === "keyword"
                      ? `${SOURCE_LABELS.keyword} ${o.keyword ?? "STOP"}`
                      : SOURCE_LABELS[o.source]}
                  </Badge>
                </Td>
                <Td className="break-all">
                  {o.source === "keyword" ? o.scope || `${sharedSender} (shared)` : "All your senders"}
                </Td>
                <Td className="whitespace-nowrap">{formatDateTime(o.createdAt, timeZone)}</Td>
                <Td>
                  {o.source === "keyword" ? (
                    <span className="text-xs text-slate-500">Lifted only by the phone's START</span>
                  ) : (
                    <RowActionForm intent="remove" id={o.id} label="Remove" target={o.phone} />
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <NumberedPager
        page={page}
        totalPages={totalPages}
        href={pageHref}
        count={pluralize(total, "opt-out")}
        label="Pages"
      />
    </div>
  );
}
