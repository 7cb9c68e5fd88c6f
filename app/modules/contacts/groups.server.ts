import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { contactGroupMembers, contactGroups, contacts } from "#app/db/schema/contacts.ts";
import { clock } from "#app/utils/clock.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { assertQuota } from "#app/modules/quotas/quotas.server.ts";
import { assertBalance } from "#app/modules/credits/ledger.server.ts";
import type { NamePosition } from "#app/modules/contacts/contacts.server.ts";
import {
  DuplicateGroupNameError,
  EmptyGroupError,
  InactiveContactError,
  NotFoundError,
} from "#app/modules/contacts/errors.ts";
import { GROUPS_PAGE_SIZE } from "#app/modules/contacts/schemas.ts";

export type GroupInput = { name: string; description: string };
export type Group = { id: number; name: string; description: string; members: number };

const byName = [sql`${contactGroups.name} collate nocase`, asc(contactGroups.id)];
const memberCount = sql<number>`(select count(*) from ${contactGroupMembers} where ${contactGroupMembers.groupId} = ${contactGroups.id})`;
const groupColumns = {
  id: contactGroups.id,
  name: contactGroups.name,
  description: contactGroups.description,
  members: memberCount,
};

async function assertNameFree(tx: Tx, userId: number, name: string, exceptId?: number): Promise<void> {
  const other = await tx
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(
      and(
        eq(contactGroups.userId, userId),
        sql`${contactGroups.name} collate nocase = ${name}`,
        exceptId === undefined ? undefined : ne(contactGroups.id, exceptId),
      ),
    )
    .get();
  if (other) throw new DuplicateGroupNameError(name);
}

/** Throws DuplicateGroupNameError when the user has a group of that name (in any letter case), QuotaExceededError past QUOTA_GROUPS. */
export async function createGroup(userId: number, input: GroupInput): Promise<Group> {
  const now = clock.date();
  return await withTx(async (tx) => {
    await assertNameFree(tx, userId, input.name);
    await assertQuota(tx, userId, "groups");
    const row = await tx
      .insert(contactGroups)
      .values({ userId, name: input.name, description: input.description, createdAt: now, updatedAt: now })
      .returning({ id: contactGroups.id, name: contactGroups.name, description: contactGroups.description })
      .get();
    return { ...row, members: 0 };
  });
}

/** Null when the group is not the user's; throws DuplicateGroupNameError. */
export async function updateGroup(userId: number, groupId: number, input: GroupInput): Promise<Group | null> {
  return await withTx(async (tx) => {
    const own = and(eq(contactGroups.id, groupId), eq(contactGroups.userId, userId));
    if (!(await tx.select({ id: contactGroups.id }).from(contactGroups).where(own).get())) return null;
    await assertNameFree(tx, userId, input.name, groupId);
    await tx
      .update(contactGroups)
      .set({ name: input.name, description: input.description, updatedAt: clock.date() })
      .where(own)
      .run();
    return (await tx.select(groupColumns).from(contactGroups).where(own).get()) ?? null;
  });
}

/** Whether the group is the user's, read inside the caller's transaction. */
export async function ownsGroup(tx: Tx, userId: number, groupId: number): Promise<boolean> {
  const own = and(eq(contactGroups.id, groupId), eq(contactGroups.userId, userId));
  return (await tx.select({ id: contactGroups.id }).from(contactGroups).where(own).get()) !== undefined;
}

/**
 * Deletes the user's group and its memberships inside the caller's transaction; its contacts stay.
 * Deleting a group from a screen goes through scheduling's deleteGroup, which cancels its schedules first.
 */
export async function deleteGroupRow(tx: Tx, userId: number, groupId: number): Promise<void> {
  await tx
    .delete(contactGroups)
    .where(and(eq(contactGroups.id, groupId), eq(contactGroups.userId, userId)))
    .run();
}

export async function getGroup(userId: number, groupId: number): Promise<Group | null> {
  return (
    (await getDb()
      .select(groupColumns)
      .from(contactGroups)
      .where(and(eq(contactGroups.id, groupId), eq(contactGroups.userId, userId)))
      .get()) ?? null
  );
}

export type GroupPage = { groups: Group[]; page: number; totalPages: number; total: number };

/** One page of the user's groups, name A to Z, with their member counts. */
export async function listGroups(userId: number, options: { page: number }): Promise<GroupPage> {
  const owner = eq(contactGroups.userId, userId);
  const total = (await getDb().select({ n: count() }).from(contactGroups).where(owner).get())?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, options.page, GROUPS_PAGE_SIZE);
  const groups = await getDb()
    .select(groupColumns)
    .from(contactGroups)
    .where(owner)
    .orderBy(...byName)
    .limit(GROUPS_PAGE_SIZE)
    .offset(offset)
    .all();
  return { groups, page, totalPages, total };
}

/** Up to `limit` of the user's groups in the list's order (name A to Z) after `after`, read by key: the REST API's paging. */
export async function listGroupsAfter(
  userId: number,
  options: { after: NamePosition | null; limit: number },
): Promise<Group[]> {
  const { after } = options;
  return await getDb()
    .select(groupColumns)
    .from(contactGroups)
    .where(
      and(
        eq(contactGroups.userId, userId),
        after
          ? sql`(${contactGroups.name}, ${contactGroups.id}) > (${after.name} collate nocase, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(...byName)
    .limit(options.limit)
    .all();
}

/** Every group of the user (id and name), for the membership checkboxes. */
export async function listGroupChoices(userId: number): Promise<{ id: number; name: string }[]> {
  return await getDb()
    .select({ id: contactGroups.id, name: contactGroups.name })
    .from(contactGroups)
    .where(eq(contactGroups.userId, userId))
    .orderBy(...byName)
    .all();
}

const queries = statements({
  memberCounts: sqlText<[number, number], { total: number; active: number }>({
    sqlite: `select count(*) as total, coalesce(sum(c.status), 0) as active
   from contact_group_members m join contacts c on c.id = m.contact_id
   where m.group_id = ? and c.user_id = ?`,
    postgres: `select count(*) as total, count(*) filter (where c.status) as active
   from contact_group_members m join contacts c on c.id = m.contact_id
   where m.group_id = $1 and c.user_id = $2`,
  }),
  latestGroup: sqlText<[number], { id: number | null }>("select max(id) as id from contact_groups where user_id = ?"),
});

/** A group's members, and how many of them are active (have not opted out). Runs inside an open transaction too. */
export async function groupMemberCounts(userId: number, groupId: number): Promise<{ total: number; active: number }> {
  return (await queries.memberCounts.get(groupId, userId)) ?? { total: 0, active: 0 };
}

/** Whom a send to a group reaches at this moment: the group's name, its members and how many of them are active. */
export type GroupRecipients = { name: string; total: number; active: number };

/**
 * The user's group and its members, read inside the caller's transaction so that what follows
 * (a group send, a schedule) is written against the same members. NotFoundError when it is not the user's group.
 */
export async function groupRecipients(tx: Tx, userId: number, groupId: number): Promise<GroupRecipients> {
  const group = await tx
    .select({ name: contactGroups.name })
    .from(contactGroups)
    .where(and(eq(contactGroups.id, groupId), eq(contactGroups.userId, userId)))
    .get();
  if (!group) throw new NotFoundError("group");
  return { name: group.name, ...(await groupMemberCounts(userId, groupId)) };
}

/**
 * Checks, inside the caller's transaction, that one message of `perMessage` credits to each active
 * member can go now: EmptyGroupError, InactiveContactError (nobody to send to) or
 * InsufficientCreditsError (needed, balance). Kept apart from groupRecipients because a repeated
 * group send is answered between the two, unchecked.
 */
export async function assertGroupSendable(
  tx: Tx,
  userId: number,
  recipients: GroupRecipients,
  perMessage: number,
  // The whole cost when members' messages differ (a templated body), else active members x perMessage.
  needed = recipients.active * perMessage,
): Promise<void> {
  if (recipients.total === 0) throw new EmptyGroupError();
  if (recipients.active === 0) throw new InactiveContactError(recipients.total);
  await assertBalance(userId, needed, tx);
}

/** The id of the user's newest group. */
export async function latestGroupId(userId: number): Promise<number | null> {
  return (await queries.latestGroup.get(userId))?.id ?? null;
}

/**
 * Adds the user's contacts to the user's group (those already in it stay, once). Null when the
 * group is not the user's; NotFoundError when a contact is not.
 */
export async function addGroupMembers(userId: number, groupId: number, contactIds: number[]): Promise<Group | null> {
  return await withTx(async (tx) => {
    if (!(await ownsGroup(tx, userId, groupId))) return null;
    const unique = [...new Set(contactIds)];
    const own = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.userId, userId), inArray(contacts.id, unique)))
      .all();
    if (own.length !== unique.length) throw new NotFoundError("contact");
    if (unique.length > 0)
      await tx
        .insert(contactGroupMembers)
        .values(unique.map((contactId) => ({ groupId, contactId })))
        .onConflictDoNothing()
        .run();
    return (await tx.select(groupColumns).from(contactGroups).where(eq(contactGroups.id, groupId)).get()) ?? null;
  });
}

/**
 * Takes one contact out of the user's group (the contact stays). Null when the group is not the
 * user's; NotFoundError when the contact is not the user's or not in the group.
 */
export async function removeGroupMember(userId: number, groupId: number, contactId: number): Promise<Group | null> {
  return await withTx(async (tx) => {
    if (!(await ownsGroup(tx, userId, groupId))) return null;
    const removed = (
      await tx
        .delete(contactGroupMembers)
        .where(
          and(
            eq(contactGroupMembers.groupId, groupId),
            eq(contactGroupMembers.contactId, contactId),
            // The member must be the user's too (it always is when the group is: belt and braces).
            inArray(
              contactGroupMembers.contactId,
              tx.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, userId)),
            ),
          ),
        )
        .run()
    ).changes;
    if (removed === 0) throw new NotFoundError("member");
    return (await tx.select(groupColumns).from(contactGroups).where(eq(contactGroups.id, groupId)).get()) ?? null;
  });
}
