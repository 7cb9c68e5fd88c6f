// What a templated group send will do, counted before it starts: the confirm step shows it and the
// start checks the balance against it. Counted member by member exactly as the fan-out sends.
import { getEnv } from "#app/utils/env.server.ts";
import { memberBatch, recipientsOf } from "#app/modules/group-sends/group-recipient.server.ts";
import { messageForMember } from "#app/modules/messaging/merge-fields.ts";

const QUOTE_BATCH = 5_000;
/** Members' rendered texts shown as examples on the confirm step. */
const QUOTE_EXAMPLES = 3;

export type GroupSendQuote = {
  messages: number;
  credits: number;
  skipped: number;
  /** Skip reason -> members, in order of first appearance. */
  skipReasons: Record<string, number>;
  /** The first members' own texts. */
  examples: { name: string; text: string }[];
};

/** The quote of sending `body` to the user's group `groupId` now (the caller has checked the group is theirs). */
export async function quoteTemplatedGroupSend(
  userId: number,
  groupId: number,
  body: string,
  from?: string | null,
): Promise<GroupSendQuote> {
  const quote: GroupSendQuote = { messages: 0, credits: 0, skipped: 0, skipReasons: {}, examples: [] };
  const maxSegments = getEnv().SMS_MAX_SEGMENTS;
  let cursor = 0;
  for (;;) {
    const members = await memberBatch(groupId, userId, cursor, QUOTE_BATCH);
    if (members.length === 0) break;
    const recipients = await recipientsOf(userId, from ?? null, members);
    for (const [i, member] of members.entries()) {
      const recipient = recipients[i];
      const message = "skip" in recipient ? recipient : messageForMember(body, member, maxSegments);
      if ("skip" in message) {
        quote.skipped += 1;
        quote.skipReasons[message.skip] = (quote.skipReasons[message.skip] ?? 0) + 1;
      } else {
        quote.messages += 1;
        quote.credits += message.credits;
        if (quote.examples.length < QUOTE_EXAMPLES) quote.examples.push({ name: member.name, text: message.text });
      }
    }
    cursor = members[members.length - 1].id;
  }
  return quote;
}
