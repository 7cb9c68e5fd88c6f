// Who in a group gets a message, shared by the fan-out (which sends) and the templated send's quote
// (which counts before sending), so the quote always equals the charge.
import { statement } from "#app/db/statements.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { SKIP_REASONS } from "#app/modules/contacts/group-send.ts";
import { isOptedOut } from "#app/modules/opt-outs/opt-outs.server.ts";
import { normalizePhone } from "#app/modules/sms/phone.ts";

export type Member = { id: number; name: string; phone: string; email: string; status: number };

/** Up to `limit` members of a group after contact id `after`, in contact id order (the primary key). */
export const memberBatch = statement<[number, number, number, number], Member>(
  `select c.id, c.name, c.phone, c.email, c.status from contact_group_members m
   join contacts c on c.id = m.contact_id
   where m.group_id = ? and c.user_id = ? and m.contact_id > ?
   order by m.contact_id limit ?`,
);

/** The member's number to send to, or why the member is skipped (inactive, invalid number, opted out). */
export function recipientOf(
  userId: number,
  fromAddress: string | null,
  member: Member,
): { to: string } | { skip: string } {
  if (!member.status) return { skip: SKIP_REASONS.optedOut };
  const phone = normalizePhone(member.phone, getEnv().DEFAULT_COUNTRY);
  if (!phone.ok) return { skip: SKIP_REASONS.invalid };
  if (isOptedOut(userId, phone.e164, fromAddress)) return { skip: SKIP_REASONS.optOutList };
  return { to: phone.e164 };
}
