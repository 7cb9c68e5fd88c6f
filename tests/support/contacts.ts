// Helpers for contact tests: a group with many members, written in one go.
import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { contactGroupMembers, contacts } from "#app/db/schema/contacts.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";

/** A group of `members` active contacts with numbers +1 202 555 xxxx (from `firstNumber` on). */
export async function seedGroup(
  userId: number,
  members: number,
  firstNumber = 1000,
): Promise<{ groupId: number; contactIds: number[] }> {
  const group = await createGroup(userId, { name: `Group ${randomUUID().slice(0, 8)}`, description: "Seeded" });
  const now = new Date();
  const contactIds = await withTx(async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < members; i++) {
      const number = String(firstNumber + i).padStart(4, "0");
      const row = await tx
        .insert(contacts)
        .values({
          userId,
          name: `Member ${number}`,
          phone: `+1202555${number}`,
          email: `m${number}@example.com`,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: contacts.id })
        .get();
      await tx.insert(contactGroupMembers).values({ groupId: group.id, contactId: row.id }).run();
      ids.push(row.id);
    }
    return ids;
  });
  return { groupId: group.id, contactIds };
}

export async function messagesOfGroupSend(groupSendId: number) {
  return await getDb().select().from(smsMessages).where(eq(smsMessages.groupSendId, groupSendId)).all();
}

export async function contactCount(userId: number): Promise<number> {
  return (await getDb().select({ n: count() }).from(contacts).where(eq(contacts.userId, userId)).get())!.n;
}
