import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, href, Link } from "react-router";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { CheckboxField, ErrorList, Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { ActionsTh, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import {
  ANY_DESTINATION,
  DEFAULT_CREDITS_PER_SEGMENT,
  DeletePriceSchema,
  parsePrefix,
  prefixLabel,
  PriceFormSchema,
} from "#app/modules/pricing/price-list.ts";
import { deletePrice, importPrices, listPrices, savePrice } from "#app/modules/pricing/prices.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/prices";

export const meta: Route.MetaFunction = () => [{ title: "Prices | SMS Gateway" }];

const BACK = () => href("/admin/prices");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const prices = await listPrices();
  const edit = new URL(request.url).searchParams.get("edit");
  const parsed = edit === null ? null : parsePrefix(edit);
  const editing = parsed && "prefix" in parsed ? prices.find((price) => price.prefix === parsed.prefix) : undefined;
  if (edit !== null && !editing) throw notFound();
  return { prices, editing: editing ?? null };
}

async function importIntent(formData: FormData) {
  const file = formData.get("file");
  const text = file instanceof File ? await file.text() : "";
  if (!text.trim()) return data({ form: "import" as const, errors: ["Choose a CSV file to import"] }, { status: 400 });
  const result = await importPrices(text, { replace: formData.get("replace") === "on" });
  if ("errors" in result) {
    const errors = result.errors.map((error) => `Line ${error.line}: ${error.message}`);
    const summary = `Nothing was imported: ${pluralize(errors.length, "line")} to fix.`;
    return data({ form: "import" as const, errors: [summary, ...errors] }, { status: 400 });
  }
  return redirectWithToast(BACK(), { description: `Imported ${pluralize(result.imported, "price")}.` });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "import") return importIntent(formData);
  if (intent === "delete") {
    const submission = parseWithZod(formData, { schema: DeletePriceSchema });
    if (submission.status !== "success" || !(await deletePrice(submission.value.prefix))) throw notFound();
    return redirectWithToast(BACK(), { description: `Price for ${prefixLabel(submission.value.prefix)} deleted.` });
  }
  const submission = parseWithZod(formData, { schema: PriceFormSchema });
  if (submission.status !== "success")
    return data({ form: "price" as const, result: submission.reply() }, { status: 400 });
  await savePrice(submission.value);
  const { prefix, creditsPerSegment } = submission.value;
  return redirectWithToast(BACK(), {
    description: `${prefixLabel(prefix)}: ${pluralize(creditsPerSegment, "credit")} per segment.`,
  });
}

type Editing = Route.ComponentProps["loaderData"]["editing"];

function PriceForm({ editing, lastResult }: { editing: Editing; lastResult: unknown }) {
  const [form, fields] = useForm({
    id: editing ? `price-${editing.prefix}` : "new-price",
    lastResult: lastResult as never,
    shouldValidate: "onSubmit",
    defaultValue: editing
      ? {
          prefix: editing.prefix === ANY_DESTINATION ? ANY_DESTINATION : `+${editing.prefix}`,
          creditsPerSegment: String(editing.creditsPerSegment),
        }
      : undefined,
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">
        {editing ? `Edit ${prefixLabel(editing.prefix)}` : "Add a price"}
      </h2>
      <Form method="post" className="mt-3 space-y-3" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? (
          <input type="hidden" name={fields.prefix.name} value={fields.prefix.initialValue ?? ""} />
        ) : (
          <Field
            label="Prefix"
            help="Country code and the digits after it, such as +44 or +44 7700; * for every destination without its own."
            inputProps={{ ...getInputProps(fields.prefix, { type: "text" }), autoComplete: "off" }}
            errors={fields.prefix.errors}
          />
        )}
        <Field
          label="Credits per segment"
          help="A whole number, 1 or more."
          inputProps={{ ...getInputProps(fields.creditsPerSegment, { type: "number" }), min: 1, step: 1 }}
          errors={fields.creditsPerSegment.errors}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save">
            {editing ? "Save price" : "Add price"}
          </Button>
          {editing ? (
            <ButtonLink to={BACK()} variant="secondary">
              Cancel
            </ButtonLink>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

function ImportForm({ errors }: { errors: string[] | undefined }) {
  const errorId = errors?.length ? "price-file-error" : undefined;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Import a price list</h2>
      <p className="mt-1 text-sm text-slate-600">
        A CSV file whose first line is <code>prefix,credits_per_segment</code>, then one prefix a line (such as{" "}
        <code>+447700,3</code>). Every line is checked first: one bad line and nothing is imported.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-3 space-y-3">
        <div>
          <label htmlFor="price-file" className="mb-1 block text-sm font-medium text-slate-700">
            CSV file
          </label>
          <input
            id="price-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            aria-invalid={errorId ? true : undefined}
            aria-describedby={errorId}
            className="block w-full text-sm"
          />
          <ErrorList id={errorId} errors={errors} />
        </div>
        <CheckboxField
          label="Remove the prefixes that are not in the file"
          inputProps={{ name: "replace", type: "checkbox" }}
        />
        <Button type="submit" name="intent" value="import">
          Import
        </Button>
      </Form>
    </Card>
  );
}

export default function AdminPrices({ loaderData, actionData }: Route.ComponentProps) {
  const { prices, editing } = loaderData;
  const failed = actionData as { form: "price"; result: unknown } | { form: "import"; errors: string[] } | undefined;
  return (
    <div className="space-y-6">
      <PageHeader title="Prices" subtitle="Credits per SMS segment, by destination" />
      <p className="text-sm text-slate-700">
        A number costs what its longest matching prefix says; without one, what * says, else{" "}
        {pluralize(DEFAULT_CREDITS_PER_SEGMENT, "credit")} per segment. Customers see this list on the{" "}
        <Link to={href("/pricing/destinations")}>price list</Link>.
      </p>
      {prices.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          {`No prices yet: every destination costs ${pluralize(DEFAULT_CREDITS_PER_SEGMENT, "credit")} per segment.`}
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Prices by destination prefix</caption>
          <thead>
            <tr>
              <Th>Prefix</Th>
              <Th className="text-right">Credits per segment</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {prices.map((price) => (
              <tr key={price.prefix} data-testid="price-row">
                <Td className="font-medium">{prefixLabel(price.prefix)}</Td>
                <Td className="text-right">{price.creditsPerSegment}</Td>
                <Td>
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={`${BACK()}?edit=${encodeURIComponent(price.prefix)}`} className="text-sm">
                      Edit <span className="sr-only">{prefixLabel(price.prefix)}</span>
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="prefix" value={price.prefix} />
                      <Button type="submit" name="intent" value="delete" variant="secondary" size="sm">
                        Delete <span className="sr-only">{prefixLabel(price.prefix)}</span>
                      </Button>
                    </Form>
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <PriceForm
          key={editing?.prefix ?? "new"}
          editing={editing}
          lastResult={failed?.form === "price" ? failed.result : undefined}
        />
        <ImportForm errors={failed?.form === "import" ? failed.errors : undefined} />
      </div>
    </div>
  );
}
