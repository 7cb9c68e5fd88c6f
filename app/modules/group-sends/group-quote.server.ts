// What a templated group send will do, counted before it starts: the confirm step shows it and the
// start checks the balance against it. Counted member by member exactly as the fan-out sends.
import { getEnv } from "#app/utils/env.server.ts";
import { memberBatch, recipientsOf } from "#app/modules/group-sends/group-recipient.server.ts";
import { hasMergeFields, messageForMember } from "#app/modules/messaging/merge-fields.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { ANY_DESTINATION, creditsPerSegmentIn, isUniform, type PriceList } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";

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
  const prices = await currentPriceList();
  const maxSegments = getEnv().SMS_MAX_SEGMENTS;
  // A body without merge fields is every member's message: counted once.
  const sameForAll = hasMergeFields(body) ? null : messageForMember(body, {}, maxSegments);
  let cursor = 0;
  for (;;) {
    const members = await memberBatch(groupId, userId, cursor, QUOTE_BATCH);
    if (members.length === 0) break;
    const recipients = await recipientsOf(userId, from ?? null, members);
    for (const [i, member] of members.entries()) {
      const recipient = recipients[i];
      const message = "skip" in recipient ? recipient : (sameForAll ?? messageForMember(body, member, maxSegments));
      if ("skip" in message) {
        quote.skipped += 1;
        quote.skipReasons[message.skip] = (quote.skipReasons[message.skip] ?? 0) + 1;
      } else if ("to" in recipient) {
        quote.messages += 1;
        // Its credits are its segments (1 per segment), times what a segment costs to its number.
        quote.credits += message.credits * creditsPerSegmentIn(prices, recipient.to);
        if (quote.examples.length < QUOTE_EXAMPLES) quote.examples.push({ name: member.name, text: message.text });
      }
    }
    cursor = members[members.length - 1].id;
  }
  return quote;
}

/** What one message of `body` costs where every destination costs the same (no prefix in the list). */
export function uniformMessageCredits(body: string, prices: PriceList): number {
  return countSegments(body).segments * creditsPerSegmentIn(prices, ANY_DESTINATION);
}

/**
 * What sending `body` to the group costs when members' messages cost differently (merge fields, or
 * prices by destination): counted member by member as the fan-out sends. Undefined when they all
 * cost the same (active members x uniformMessageCredits).
 */
export async function memberByMemberCost(
  userId: number,
  groupId: number,
  body: string,
  from: string | null | undefined,
  prices: PriceList,
): Promise<number | undefined> {
  if (!hasMergeFields(body) && isUniform(prices)) return undefined;
  return (await quoteTemplatedGroupSend(userId, groupId, body, from)).credits;
}
