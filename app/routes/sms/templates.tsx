import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { useMemo, useState } from "react";
import { data, Form, href, Link, useLocation, useNavigation } from "react-router";
import { TemplatePreview } from "#app/components/templates/template-preview.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Field, FormErrors, TextareaField } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { ActionsTh, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { MERGE_FIELDS } from "#app/modules/messaging/merge-fields.ts";
import {
  createTemplateSchema,
  DeleteTemplateSchema,
  TEMPLATE_INTENT,
  TEMPLATE_NAME_MAX,
} from "#app/modules/templates/schemas.ts";
import {
  createTemplate,
  deleteTemplate,
  DuplicateTemplateNameError,
  getTemplate,
  listTemplates,
  updateTemplate,
} from "#app/modules/templates/templates.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/templates";

export const meta: Route.MetaFunction = () => [{ title: "Templates | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const editId = positiveIntParam(params, "edit");
  const deleteId = positiveIntParam(params, "delete");
  // A template opened by URL must be the user's own.
  const owned = async (id: number | undefined) => {
    if (id === undefined) return null;
    const template = await getTemplate(user.id, id);
    if (!template) throw notFound();
    return { id: template.id, name: template.name, body: template.body };
  };
  return {
    templates: (await listTemplates(user.id)).map((t) => ({ ...t, updatedAt: t.updatedAt.getTime() })),
    editing: await owned(editId),
    deleting: await owned(deleteId),
    maxSegments: getEnv().SMS_MAX_SEGMENTS,
    timeZone: user.timeZone,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const path = href("/sms/templates");
  if (formData.get("intent") === TEMPLATE_INTENT.delete) {
    const submission = parseWithZod(formData, { schema: DeleteTemplateSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    if (!(await deleteTemplate(user.id, submission.value.id))) throw notFound();
    return redirectWithToast(path, { description: "Template deleted." });
  }
  const submission = parseWithZod(formData, { schema: createTemplateSchema(getEnv().SMS_MAX_SEGMENTS) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { id, name, body, intent } = submission.value;
  // Editing someone else's template is a 404 even when only previewing it.
  if (id !== undefined && !(await getTemplate(user.id, id))) throw notFound();
  // Without JavaScript "Preview" posts the form: the page renders the preview of what was typed.
  if (intent === TEMPLATE_INTENT.preview) return data(submission.reply(), { status: 200 });
  try {
    if (id === undefined) await createTemplate(user.id, { name, body });
    else if (!(await updateTemplate(user.id, id, { name, body }))) throw notFound();
  } catch (error) {
    if (error instanceof DuplicateTemplateNameError)
      return data(submission.reply({ fieldErrors: { name: [error.message] } }), { status: 400 });
    throw error;
  }
  return redirectWithToast(path, { description: id === undefined ? "Template created." : "Template saved." });
}

const FIELD_LIST = MERGE_FIELDS.map((f) => `{{${f}}}`).join(", ");

function TemplateForm({
  editing,
  maxSegments,
  lastResult,
}: {
  editing: { id: number; name: string; body: string } | null;
  maxSegments: number;
  lastResult: Route.ComponentProps["actionData"];
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const schema = useMemo(() => createTemplateSchema(maxSegments), [maxSegments]);
  const [form, fields] = useForm({
    id: editing ? `template-${editing.id}` : "template-new",
    lastResult,
    defaultValue: editing ? { name: editing.name, body: editing.body } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [body, setBody] = useState(() => String(fields.body.initialValue ?? ""));
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">
        {editing ? `Edit template: ${editing.name}` : "New template"}
      </h2>
      <Form method="post" className="mt-4 space-y-4" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field
          label="Name"
          inputProps={{
            ...getInputProps(fields.name, { type: "text" }),
            maxLength: TEMPLATE_NAME_MAX,
            autoComplete: "off",
          }}
          errors={fields.name.errors}
        />
        <TextareaField
          label="Message"
          textareaProps={{
            ...getTextareaProps(fields.body),
            rows: 5,
            onChange: (event) => setBody(event.currentTarget.value),
          }}
          errors={fields.body.errors}
          help={
            <>
              Merge fields: {FIELD_LIST}. Add a fallback for contacts without a value, as in {"{{name|there}}"}; a
              contact without the value and without a fallback is skipped.
            </>
          }
        />
        <TemplatePreview body={body} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value={TEMPLATE_INTENT.save} disabled={navigation.state === "submitting"}>
            {editing ? "Save template" : "Create template"}
          </Button>
          {/* With JavaScript the preview is live; without it, this asks the server for it. */}
          {hydrated ? null : (
            <Button type="submit" name="intent" value={TEMPLATE_INTENT.preview} variant="secondary">
              Preview
            </Button>
          )}
          {editing ? (
            <ButtonLink to={href("/sms/templates")} variant="secondary">
              Cancel
            </ButtonLink>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

function DeleteTemplate({ template }: { template: { id: number; name: string } }) {
  return (
    <Notice tone="warning">
      <h2 className="font-semibold">Delete template: {template.name}</h2>
      <p className="mt-1 text-sm">
        Are you sure you want to delete this template? Messages sent from it keep their text.
      </p>
      <Form method="post" className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="id" value={template.id} />
        <Button type="submit" name="intent" value={TEMPLATE_INTENT.delete} variant="danger">
          Yes, delete it
        </Button>
        <ButtonLink to={href("/sms/templates")} variant="secondary">
          Cancel
        </ButtonLink>
      </Form>
    </Notice>
  );
}

export default function Templates({ loaderData, actionData }: Route.ComponentProps) {
  const { templates, editing, deleting, maxSegments, timeZone } = loaderData;
  const location = useLocation();
  return (
    <div className="space-y-6">
      <PageHeader
        subtitle="SMS Gateway"
        title="Templates"
        actions={
          <ButtonLink to={href("/sms/sendSms")} variant="secondary">
            Back
          </ButtonLink>
        }
      />
      <p className="text-sm text-slate-700">
        Named messages to start a send from (Send SMS, Schedule SMS, a group's Send or Schedule). In a group send each
        member gets the text rendered for them, and you see the total before it goes.
      </p>
      {deleting ? <DeleteTemplate template={deleting} /> : null}
      {templates.length === 0 ? (
        <p className="text-sm text-slate-600">You have no templates yet.</p>
      ) : (
        <Table>
          <caption className="sr-only">Your templates</caption>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Message</Th>
              <Th>Changed ({timeZone})</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {templates.map((t) => (
              <tr key={t.id} data-testid="template-row">
                <Td className="font-medium break-words">{t.name}</Td>
                <Td className="max-w-md break-words whitespace-pre-wrap">{t.body}</Td>
                <Td className="whitespace-nowrap">{formatDateTime(t.updatedAt, timeZone)}</Td>
                <Td className="space-x-3 whitespace-nowrap">
                  <Link to={`${href("/sms/sendSms")}?template=${t.id}`}>
                    Send<span className="sr-only"> {t.name}</span>
                  </Link>
                  <Link to={`${href("/sms/templates")}?edit=${t.id}`}>
                    Edit<span className="sr-only"> {t.name}</span>
                  </Link>
                  <Link to={`${href("/sms/templates")}?delete=${t.id}`}>
                    Delete<span className="sr-only"> {t.name}</span>
                  </Link>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {/* Remounted per URL, so saving (a redirect) brings back an empty form. */}
      <TemplateForm key={location.key} editing={editing} maxSegments={maxSegments} lastResult={actionData} />
    </div>
  );
}
