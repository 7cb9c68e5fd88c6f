// The Templates screen's forms (save, preview without JavaScript, delete) and the send forms' start
// from a template (?template=ID).
import { parseWithZod } from "@conform-to/zod/v4";
import { data, href } from "react-router";
import { getEnv } from "#app/utils/env.server.ts";
import { notFound } from "#app/utils/responses.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import {
  createTemplateSchema,
  DeleteTemplateSchema,
  TEMPLATE_INTENT,
  templateParam,
} from "#app/modules/templates/schemas.ts";
import {
  createTemplate,
  deleteTemplate,
  DuplicateTemplateNameError,
  getTemplate,
  listTemplates,
  updateTemplate,
} from "#app/modules/templates/templates.server.ts";

/**
 * What a send form needs to start from a template: the choices, and the body of `?template=ID`
 * (someone else's id, or a deleted one, is a 404).
 */
export function templateStart(request: Request, userId: number) {
  const templates = listTemplates(userId).map((t) => ({ id: t.id, name: t.name }));
  const id = templateParam(request.url);
  if (id === null) return { templates, templateId: null, templateBody: null };
  const template = getTemplate(userId, id);
  if (!template) throw notFound();
  return { templates, templateId: template.id, templateBody: template.body };
}

export async function templatesAction(request: Request, userId: number) {
  const formData = await request.formData();
  const path = href("/sms/templates");
  if (formData.get("intent") === TEMPLATE_INTENT.delete) {
    const submission = parseWithZod(formData, { schema: DeleteTemplateSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    if (!deleteTemplate(userId, submission.value.id)) throw notFound();
    return redirectWithToast(path, { description: "Template deleted." });
  }
  const submission = parseWithZod(formData, { schema: createTemplateSchema(getEnv().SMS_MAX_SEGMENTS) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { id, name, body, intent } = submission.value;
  // Editing someone else's template is a 404 even when only previewing it.
  if (id !== undefined && !getTemplate(userId, id)) throw notFound();
  // Without JavaScript "Preview" posts the form: the page renders the preview of what was typed.
  if (intent === TEMPLATE_INTENT.preview) return data(submission.reply(), { status: 200 });
  try {
    if (id === undefined) createTemplate(userId, { name, body });
    else if (!updateTemplate(userId, id, { name, body })) throw notFound();
  } catch (error) {
    if (error instanceof DuplicateTemplateNameError)
      return data(submission.reply({ fieldErrors: { name: [error.message] } }), { status: 400 });
    throw error;
  }
  return redirectWithToast(path, { description: id === undefined ? "Template created." : "Template saved." });
}
