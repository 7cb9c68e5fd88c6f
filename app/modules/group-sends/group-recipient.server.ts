// Who in a group gets a message, shared by the fan-out (which sends) and the templated send's quote
// (which counts before sending), so the quote always equals the charge.
import { sqlText, statements } from "#app/db/statements.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { SKIP_REASONS } from "#app/modules/group-sends/group-send.ts";
import { optedOutAmong } from "#app/modules/opt-outs/opt-outs.server.ts";
import { isE164, normalizePhone } from "#app/modules/messaging/phone.ts";

export type Member = { id: number; name: string; phone: string; email: string; status: number };

const queries = statements({
  memberBatch: sqlText<[number, number, number, number], Member>(
    `select c.id, c.name, c.phone, c.email, c.status from contact_group_members m
   join contacts c on c.id = m.contact_id
   where m.group_id = ? and c.user_id = ? and m.contact_id > ?
   order by m.contact_id limit ?`,
  ),
});

/** Up to `limit` members of a group after contact id `after`, in contact id order (the primary key). */
export async function memberBatch(groupId: number, userId: number, after: number, limit: number): Promise<Member[]> {
  return await queries.memberBatch.all(groupId, userId, after, limit);
}

type Recipient = { to: string } | { skip: string };

/** Each member's number to send to, or why the member is skipped (inactive, invalid number, opted out); one opt-out look-up for all. */
export async function recipientsOf(
  userId: number,
  fromAddress: string | null,
  members: Member[],
): Promise<Recipient[]> {
  const defaultCountry = getEnv().DEFAULT_COUNTRY;
  const checked = members.map((member): Recipient => {
    if (!member.status) return { skip: SKIP_REASONS.optedOut };
    // Contacts store E.164 validated on the way in: only a number stored otherwise is parsed again.
    if (isE164(member.phone)) return { to: member.phone };
    const phone = normalizePhone(member.phone, defaultCountry);
    return phone.ok ? { to: phone.e164 } : { skip: SKIP_REASONS.invalid };
  });
  const optedOut = await optedOutAmong(
    userId,
    checked.flatMap((recipient) => ("to" in recipient ? [recipient.to] : [])),
    fromAddress,
  );
  return checked.map((recipient) =>
    "to" in recipient && optedOut.has(recipient.to) ? { skip: SKIP_REASONS.optOutList } : recipient,
  );
}
