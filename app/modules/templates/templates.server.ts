// Message templates: named bodies an account starts its sends from. Every function takes the
// owner's id and filters by it, so another account's template is "not found".
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { contacts } from "#app/db/schema/contacts.ts";
import { messageTemplates } from "#app/db/schema/templates.ts";
import { clock } from "#app/utils/clock.server.ts";
import { hasMergeFields, type MergeField, renderMergeFields } from "#app/modules/messaging/merge-fields.ts";

export type MessageTemplate = { id: number; name: string; body: string; updatedAt: Date };
export type TemplateInput = { name: string; body: string };

export class DuplicateTemplateNameError extends Error {
  readonly code = "duplicate_template_name";
  constructor(name: string) {
    super(`You already have a template named "${name}"`);
    this.name = "DuplicateTemplateNameError";
  }
}

const columns = {
  id: messageTemplates.id,
  name: messageTemplates.name,
  body: messageTemplates.body,
  updatedAt: messageTemplates.updatedAt,
};
const byName = [asc(sql`${messageTemplates.name} collate nocase`), asc(messageTemplates.id)];

async function assertNameFree(tx: Tx, userId: number, name: string, exceptId?: number): Promise<void> {
  const taken = await tx
    .select({ id: messageTemplates.id })
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.userId, userId),
        sql`${messageTemplates.name} = ${name} collate nocase`,
        exceptId === undefined ? undefined : ne(messageTemplates.id, exceptId),
      ),
    )
    .get();
  if (taken) throw new DuplicateTemplateNameError(name);
}

/** Every template of the user, name A to Z (an account keeps a handful, so one list, no pages). */
export async function listTemplates(userId: number): Promise<MessageTemplate[]> {
  return await getDb()
    .select(columns)
    .from(messageTemplates)
    .where(eq(messageTemplates.userId, userId))
    .orderBy(...byName)
    .all();
}

/** One of the user's templates, or null (not theirs, or gone). */
export async function getTemplate(userId: number, templateId: number): Promise<MessageTemplate | null> {
  return (
    (await getDb()
      .select(columns)
      .from(messageTemplates)
      .where(and(eq(messageTemplates.id, templateId), eq(messageTemplates.userId, userId)))
      .get()) ?? null
  );
}

/** Throws DuplicateTemplateNameError. The body is validated by the form (messageBodyField). */
export async function createTemplate(userId: number, input: TemplateInput): Promise<MessageTemplate> {
  const now = clock.date();
  return await withTx(async (tx) => {
    await assertNameFree(tx, userId, input.name);
    return await tx
      .insert(messageTemplates)
      .values({ userId, name: input.name, body: input.body, createdAt: now, updatedAt: now })
      .returning(columns)
      .get();
  });
}

/** Null when the template is not the user's; throws DuplicateTemplateNameError. */
export async function updateTemplate(
  userId: number,
  templateId: number,
  input: TemplateInput,
): Promise<MessageTemplate | null> {
  return await withTx(async (tx) => {
    const own = and(eq(messageTemplates.id, templateId), eq(messageTemplates.userId, userId));
    if (!(await tx.select({ id: messageTemplates.id }).from(messageTemplates).where(own).get())) return null;
    await assertNameFree(tx, userId, input.name, templateId);
    return (
      (await tx
        .update(messageTemplates)
        .set({ name: input.name, body: input.body, updatedAt: clock.date() })
        .where(own)
        .returning(columns)
        .get()) ?? null
    );
  });
}

/** False when the template is not the user's. Sends made from it keep their own text. */
export async function deleteTemplate(userId: number, templateId: number): Promise<boolean> {
  return await withTx(
    async (tx) =>
      (
        await tx
          .delete(messageTemplates)
          .where(and(eq(messageTemplates.id, templateId), eq(messageTemplates.userId, userId)))
          .run()
      ).changes > 0,
  );
}

/** A templated message to one number could not be rendered: the contact lacks a field and the body has no fallback. */
export class UnrenderableMessageError extends Error {
  readonly code = "merge_field_missing";
  readonly field: MergeField;
  constructor(phone: string, field: MergeField, isContact: boolean) {
    super(
      isContact
        ? `Your contact ${phone} has no ${field}: add a fallback like {{${field}|there}} or fill in the contact's ${field}.`
        : `${phone} is not one of your contacts, so {{${field}}} has no value: add a fallback like {{${field}|there}} or save the number as a contact.`,
    );
    this.name = "UnrenderableMessageError";
    this.field = field;
  }
}

/**
 * The text of a message to one number: a body without merge fields as it is; otherwise rendered
 * from the user's contact with that number (E.164), else from the fallbacks alone. Throws
 * UnrenderableMessageError when a field has neither.
 */
export async function renderForPhone(userId: number, phone: string, body: string): Promise<string> {
  if (!hasMergeFields(body)) return body;
  const contact = await getDb()
    .select({ name: contacts.name, phone: contacts.phone, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.phone, phone)))
    .get();
  const rendered = renderMergeFields(body, contact ?? { phone });
  if (!rendered.ok) throw new UnrenderableMessageError(phone, rendered.missing, contact !== undefined);
  return rendered.text;
}
