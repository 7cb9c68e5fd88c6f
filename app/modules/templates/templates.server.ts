// Message templates: named bodies an account starts its sends from. Every function takes the
// owner's id and filters by it, so another account's template is "not found".
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { getDb, inTransaction, type Tx } from "#app/db/client.server.ts";
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

function assertNameFree(tx: Tx, userId: number, name: string, exceptId?: number): void {
  const taken = tx
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
export function listTemplates(userId: number): MessageTemplate[] {
  return getDb()
    .select(columns)
    .from(messageTemplates)
    .where(eq(messageTemplates.userId, userId))
    .orderBy(...byName)
    .all();
}

/** One of the user's templates, or null (not theirs, or gone). */
export function getTemplate(userId: number, templateId: number): MessageTemplate | null {
  return (
    getDb()
      .select(columns)
      .from(messageTemplates)
      .where(and(eq(messageTemplates.id, templateId), eq(messageTemplates.userId, userId)))
      .get() ?? null
  );
}

/** Throws DuplicateTemplateNameError. The body is validated by the form (messageBodyField). */
export function createTemplate(userId: number, input: TemplateInput): MessageTemplate {
  const now = clock.date();
  return inTransaction((tx) => {
    assertNameFree(tx, userId, input.name);
    return tx
      .insert(messageTemplates)
      .values({ userId, name: input.name, body: input.body, createdAt: now, updatedAt: now })
      .returning(columns)
      .get();
  });
}

/** Null when the template is not the user's; throws DuplicateTemplateNameError. */
export function updateTemplate(userId: number, templateId: number, input: TemplateInput): MessageTemplate | null {
  return inTransaction((tx) => {
    const own = and(eq(messageTemplates.id, templateId), eq(messageTemplates.userId, userId));
    if (!tx.select({ id: messageTemplates.id }).from(messageTemplates).where(own).get()) return null;
    assertNameFree(tx, userId, input.name, templateId);
    return (
      tx
        .update(messageTemplates)
        .set({ name: input.name, body: input.body, updatedAt: clock.date() })
        .where(own)
        .returning(columns)
        .get() ?? null
    );
  });
}

/** False when the template is not the user's. Sends made from it keep their own text. */
export function deleteTemplate(userId: number, templateId: number): boolean {
  return inTransaction(
    (tx) =>
      tx
        .delete(messageTemplates)
        .where(and(eq(messageTemplates.id, templateId), eq(messageTemplates.userId, userId)))
        .run().changes > 0,
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
export function renderForPhone(userId: number, phone: string, body: string): string {
  if (!hasMergeFields(body)) return body;
  const contact = getDb()
    .select({ name: contacts.name, phone: contacts.phone, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.phone, phone)))
    .get();
  const rendered = renderMergeFields(body, contact ?? { phone });
  if (!rendered.ok) throw new UnrenderableMessageError(phone, rendered.missing, contact !== undefined);
  return rendered.text;
}
