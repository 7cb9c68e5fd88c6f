import { and, asc, count, eq, inArray, lt, or, sql } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { contactGroupMembers, contactGroups, contacts } from "#app/db/schema/contacts.ts";
import { clock } from "#app/utils/clock.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { assertQuota } from "#app/modules/quotas/quotas.server.ts";
import { DuplicatePhoneError, NotFoundError } from "#app/modules/contacts/errors.ts";
import { CONTACTS_PAGE_SIZE } from "#app/modules/contacts/schemas.ts";

export type ContactInput = {
  name: string;
  /** E.164 (phone.ts's phoneField gives it). */
  phone: string;
  email: string;
  /** IANA zone for quiet hours; null: the number's country. Left out (the API): unchanged. */
  timeZone?: string | null;
  groupIds: number[];
};

export type GroupRef = { id: number; name: string };

export type Contact = {
  id: number;
  name: string;
  phone: string;
  email: string;
  /** False: opted out; group sends skip it. */
  status: boolean;
  timeZone: string | null;
  groups: GroupRef[];
};

const contactColumns = {
  id: contacts.id,
  name: contacts.name,
  phone: contacts.phone,
  email: contacts.email,
  status: contacts.status,
  timeZone: contacts.timeZone,
};

const byName = [sql`${contacts.name} collate nocase`, asc(contacts.id)];

/** Throws NotFoundError unless every id is one of this user's groups. */
async function assertOwnGroups(tx: Tx, userId: number, groupIds: number[]): Promise<number[]> {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return unique;
  const found = await tx
    .select({ n: count() })
    .from(contactGroups)
    .where(and(eq(contactGroups.userId, userId), inArray(contactGroups.id, unique)))
    .get();
  if (found?.n !== unique.length) throw new NotFoundError("group");
  return unique;
}

async function assertPhoneFree(tx: Tx, userId: number, phone: string, exceptId?: number): Promise<void> {
  const other = await tx
    .select({ id: contacts.id, name: contacts.name })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.phone, phone)))
    .get();
  if (other && other.id !== exceptId) throw new DuplicatePhoneError(phone, other.name);
}

async function groupsOf(userId: number, contactIds: number[]): Promise<Map<number, GroupRef[]>> {
  const map = new Map<number, GroupRef[]>();
  if (contactIds.length === 0) return map;
  const rows = await getDb()
    .select({ contactId: contactGroupMembers.contactId, id: contactGroups.id, name: contactGroups.name })
    .from(contactGroupMembers)
    .innerJoin(contactGroups, eq(contactGroups.id, contactGroupMembers.groupId))
    .where(and(inArray(contactGroupMembers.contactId, contactIds), eq(contactGroups.userId, userId)))
    .orderBy(sql`${contactGroups.name} collate nocase`)
    .all();
  for (const row of rows) {
    const list = map.get(row.contactId) ?? [];
    list.push({ id: row.id, name: row.name });
    map.set(row.contactId, list);
  }
  return map;
}

/**
 * Creates a contact (active) in the given groups. Throws DuplicatePhoneError, QuotaExceededError
 * (the account holds QUOTA_CONTACTS), or NotFoundError for a group that is not the user's.
 */
export async function createContact(userId: number, input: ContactInput): Promise<Contact> {
  const now = clock.date();
  return await withTx(async (tx) => {
    const groupIds = await assertOwnGroups(tx, userId, input.groupIds);
    await assertPhoneFree(tx, userId, input.phone);
    await assertQuota(tx, userId, "contacts");
    const row = await tx
      .insert(contacts)
      .values({
        userId,
        name: input.name,
        phone: input.phone,
        email: input.email,
        timeZone: input.timeZone ?? null,
        status: true,
        createdAt: now,
        updatedAt: now,
      })
      .returning(contactColumns)
      .get();
    if (groupIds.length > 0) {
      await tx
        .insert(contactGroupMembers)
        .values(groupIds.map((groupId) => ({ groupId, contactId: row.id })))
        .run();
    }
    return { ...row, groups: await groupsOfTx(tx, userId, row.id) };
  });
}

async function groupsOfTx(tx: Tx, userId: number, contactId: number): Promise<GroupRef[]> {
  return await tx
    .select({ id: contactGroups.id, name: contactGroups.name })
    .from(contactGroupMembers)
    .innerJoin(contactGroups, eq(contactGroups.id, contactGroupMembers.groupId))
    .where(and(eq(contactGroupMembers.contactId, contactId), eq(contactGroups.userId, userId)))
    .orderBy(sql`${contactGroups.name} collate nocase`)
    .all();
}

async function replaceGroups(tx: Tx, contactId: number, groupIds: number[]): Promise<void> {
  await tx.delete(contactGroupMembers).where(eq(contactGroupMembers.contactId, contactId)).run();
  if (groupIds.length > 0) {
    await tx
      .insert(contactGroupMembers)
      .values(groupIds.map((groupId) => ({ groupId, contactId })))
      .run();
  }
}

/**
 * Changes a contact and sets its groups to exactly `groupIds`. Returns null when the contact is
 * not the user's; throws DuplicatePhoneError, or NotFoundError for a group that is not the user's.
 */
export async function updateContact(
  userId: number,
  contactId: number,
  input: ContactInput & { status: boolean },
): Promise<Contact | null> {
  return await withTx(async (tx) => {
    if (!(await ownContact(tx, userId, contactId))) return null;
    await assertPhoneFree(tx, userId, input.phone, contactId);
    const groupIds = await assertOwnGroups(tx, userId, input.groupIds);
    const row = await tx
      .update(contacts)
      .set({
        name: input.name,
        phone: input.phone,
        email: input.email,
        ...(input.timeZone !== undefined && { timeZone: input.timeZone }),
        status: input.status,
        updatedAt: clock.date(),
      })
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
      .returning(contactColumns)
      .get();
    await replaceGroups(tx, contactId, groupIds);
    return { ...row, groups: await groupsOfTx(tx, userId, contactId) };
  });
}

async function ownContact(tx: Tx, userId: number, contactId: number): Promise<boolean> {
  return (
    (await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
      .get()) !== undefined
  );
}

/** Sets a contact's groups to exactly `groupIds` (the API's membership update). False when the contact is not the user's. */
export async function setContactGroups(userId: number, contactId: number, groupIds: number[]): Promise<boolean> {
  return await withTx(async (tx) => {
    if (!(await ownContact(tx, userId, contactId))) return false;
    await replaceGroups(tx, contactId, await assertOwnGroups(tx, userId, groupIds));
    return true;
  });
}

/** Deletes a contact (its memberships go with it; its messages stay in the history). False when not the user's. */
export async function deleteContact(userId: number, contactId: number): Promise<boolean> {
  return await withTx(
    async (tx) =>
      (
        await tx
          .delete(contacts)
          .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
          .run()
      ).changes > 0,
  );
}

export async function getContact(userId: number, contactId: number): Promise<Contact | null> {
  const row = await getDb()
    .select(contactColumns)
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
    .get();
  if (!row) return null;
  return { ...row, groups: (await groupsOf(userId, [row.id])).get(row.id) ?? [] };
}

export type ContactPage = { contacts: Contact[]; page: number; totalPages: number; total: number };

/**
 * One page of the user's contacts, name A to Z, CONTACTS_PAGE_SIZE a page; with `groupId`, only
 * that group's members (NotFoundError when the group is not the user's). A page past the end gives the last.
 */
export async function listContacts(userId: number, options: { page: number; groupId?: number }): Promise<ContactPage> {
  const where = and(eq(contacts.userId, userId), await memberOf(userId, options.groupId));
  const total = (await getDb().select({ n: count() }).from(contacts).where(where).get())?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, options.page, CONTACTS_PAGE_SIZE);
  const rows = await getDb()
    .select(contactColumns)
    .from(contacts)
    .where(where)
    .orderBy(...byName)
    .limit(CONTACTS_PAGE_SIZE)
    .offset(offset)
    .all();
  const groups = await groupsOf(
    userId,
    rows.map((r) => r.id),
  );
  return { contacts: rows.map((r) => ({ ...r, groups: groups.get(r.id) ?? [] })), page, totalPages, total };
}

/** The condition "is a member of the group" (none without a group); NotFoundError when the group is not the user's. */
async function memberOf(userId: number, groupId: number | undefined) {
  if (groupId === undefined) return undefined;
  const own = await getDb()
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(and(eq(contactGroups.id, groupId), eq(contactGroups.userId, userId)))
    .get();
  if (!own) throw new NotFoundError("group");
  return inArray(
    contacts.id,
    getDb()
      .select({ id: contactGroupMembers.contactId })
      .from(contactGroupMembers)
      .where(eq(contactGroupMembers.groupId, groupId)),
  );
}

/** Where a keyset page ends: the last row's name and id. */
export type NamePosition = { name: string; id: number };

/**
 * Up to `limit` of the user's contacts in the list's order (name A to Z, then id) after `after`,
 * read by key on the (user_id, name, id) index however deep the page; with `groupId` only that
 * group's members (NotFoundError when the group is not the user's). The REST API's paging.
 */
export async function listContactsAfter(
  userId: number,
  options: { after: NamePosition | null; limit: number; groupId?: number },
): Promise<Contact[]> {
  const { after } = options;
  const rows = await getDb()
    .select(contactColumns)
    .from(contacts)
    .where(
      and(
        eq(contacts.userId, userId),
        await memberOf(userId, options.groupId),
        // The collation on the value's side is what lets SQLite seek the index instead of scanning to the page.
        after ? sql`(${contacts.name}, ${contacts.id}) > (${after.name} collate nocase, ${after.id})` : undefined,
      ),
    )
    .orderBy(...byName)
    .limit(options.limit)
    .all();
  const groups = await groupsOf(
    userId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, groups: groups.get(r.id) ?? [] }));
}

/** The list page a contact sits on, so the list can open where a new contact is. */
export async function contactListPage(userId: number, contactId: number): Promise<number> {
  const target = await getDb()
    .select({ name: contacts.name })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
    .get();
  if (!target) return 1;
  const lower = sql`${contacts.name} collate nocase`;
  const before =
    (
      await getDb()
        .select({ n: count() })
        .from(contacts)
        .where(
          and(
            eq(contacts.userId, userId),
            or(
              lt(lower, sql`${target.name} collate nocase`),
              and(sql`${lower} = ${target.name}`, lt(contacts.id, contactId)),
            ),
          ),
        )
        .get()
    )?.n ?? 0;
  return Math.floor(before / CONTACTS_PAGE_SIZE) + 1;
}

/** The id of the user's newest contact, for the documentation's examples. */
export async function latestContactId(userId: number): Promise<number | null> {
  return (
    (
      await getDb()
        .select({ id: sql<number | null>`max(${contacts.id})` })
        .from(contacts)
        .where(eq(contacts.userId, userId))
        .get()
    )?.id ?? null
  );
}
