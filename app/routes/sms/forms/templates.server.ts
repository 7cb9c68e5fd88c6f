// What the send screens share about templates: the start from a template (?template=ID) and the
// confirm step of a group send whose members' messages cost differently.
import { createHash } from "node:crypto";
import { notFound } from "#app/web/responses.server.ts";
import { getGroup } from "#app/modules/contacts/groups.server.ts";
import { type GroupSendQuote, quoteTemplatedGroupSend } from "#app/modules/group-sends/group-quote.server.ts";
import { hasMergeFields } from "#app/modules/messaging/merge-fields.ts";
import { isUniform } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { describeQuote, type TemplateSendQuote } from "#app/modules/templates/quote.ts";
import { getTemplate, listTemplates } from "#app/modules/templates/templates.server.ts";

/** The template a send form starts from: `?template=ID` (a positive integer), else none. */
function templateParam(url: string): number | null {
  const raw = new URL(url).searchParams.get("template");
  const id = raw && /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
  return id > 0 ? id : null;
}

/**
 * What a send form needs to start from a template: the choices, and the body of `?template=ID`
 * (someone else's id, or a deleted one, is a 404).
 */
export async function templateStart(request: Request, userId: number) {
  const templates = (await listTemplates(userId)).map((t) => ({ id: t.id, name: t.name }));
  const id = templateParam(request.url);
  if (id === null) return { templates, templateId: null, templateBody: null };
  const template = await getTemplate(userId, id);
  if (!template) throw notFound();
  return { templates, templateId: template.id, templateBody: template.body };
}

function quoteKey(quote: GroupSendQuote, body: string, from: string | undefined): string {
  const digest = createHash("sha256")
    .update(`${from ?? ""}\n${body}`)
    .digest("hex")
    .slice(0, 16);
  return `${quote.messages}.${quote.credits}.${quote.skipped}.${digest}`;
}

/**
 * The confirm step of a group send or group schedule whose members' messages cost differently (merge
 * fields, or prices by destination): null when there is nothing to confirm (neither) or the posted
 * `quoted` key confirms exactly this total and text; otherwise the total to show (another user's group: 404).
 */
export async function templatedGroupSendCheck(
  userId: number,
  groupId: number,
  body: string,
  from: string | undefined,
  quoted: string | undefined,
): Promise<TemplateSendQuote | null> {
  if (!hasMergeFields(body) && isUniform(await currentPriceList())) return null;
  if (!(await getGroup(userId, groupId))) throw notFound();
  const quote = await quoteTemplatedGroupSend(userId, groupId, body, from);
  const key = quoteKey(quote, body, from);
  if (quoted === key) return null;
  const changed = quoted ? "The total changed since you checked it: " : "";
  return { body, key, messages: quote.messages, description: changed + describeQuote(quote), examples: quote.examples };
}
