// What an inbound message's first word does: opt the phone out of the sender it wrote to, back in,
// or ask for help; each change is confirmed once with a free reply through the normal send path.
import { and, asc, eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { noteOptOutChanges } from "#app/modules/webhooks/account-events.server.ts";
import { users } from "#app/db/schema/core.ts";
import { optOuts } from "#app/db/schema/opt-outs.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { isE164 } from "#app/modules/messaging/phone.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { findSenderByAddress } from "#app/modules/senders/senders.server.ts";
import { scopeOf } from "#app/modules/opt-outs/enforcement.server.ts";
import { keywordOf, type KeywordReplyKind } from "#app/modules/opt-outs/keywords.ts";
import { getKeywordReplies } from "#app/modules/opt-outs/opt-outs.server.ts";

export type InboundKeyword = {
  /** The phone that wrote, as the SMSC gave it (with or without "+"). */
  phone: string;
  /** The address it wrote to: one of the senders, or the gateway's shared default. */
  toAddress: string;
  /** The account the inbound message was assigned to, or null (unassigned). */
  accountId: number | null;
  body: string;
  receivedAt: Date | number;
};

export type KeywordOutcome = {
  kind: KeywordReplyKind;
  /** Whether the phone's opt-out changed (always true for HELP, which changes nothing but is answered). */
  changed: boolean;
  /** The automatic reply queued, if one was. */
  replyId: number | null;
} | null;

/** HELP and INFO are answered at most once in this long per phone: a free answer invites SMS pumping. */
export const HELP_REPLY_INTERVAL_MS = 10 * 60_000;
/** At most this many automatic replies (HELP, STOP, START) go to one phone in 24 hours. */
const AUTO_REPLIES_PER_PHONE_PER_DAY = 5;
const DAY_MS = 24 * 3_600_000;

const queries = statements({
  // The reply of this same inbound message (a retried job) does not count against it.
  recentAutoReplies: sqlText<[string, string, number], { n: number; lastAt: number | null }>({
    sqlite: `select count(*) as n, max(created_at) as lastAt from sms_messages
   where to_phone = ? and source = 'keyword' and api_ref is not ? and created_at >= ?`,
    postgres: `select count(*) as n, max(created_at) as "lastAt" from sms_messages
   where to_phone = $1 and source = 'keyword' and api_ref is distinct from $2 and created_at >= $3`,
  }),
});

/** Whether the phone has had its share of automatic replies: a HELP within the interval, or the day's cap. */
async function autoReplyThrottled(phone: string, kind: KeywordReplyKind, apiRef: string): Promise<boolean> {
  const now = clock.now();
  const { n, lastAt } = (await queries.recentAutoReplies.get(phone, apiRef, now - DAY_MS))!;
  if (n >= AUTO_REPLIES_PER_PHONE_PER_DAY) return true;
  return kind === "help" && lastAt !== null && lastAt > now - HELP_REPLY_INTERVAL_MS;
}

/** Whose the reply is when the inbound message belongs to nobody: the gateway's first admin. */
async function operatorId(): Promise<number | undefined> {
  return (
    await getDb().select({ id: users.id }).from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get()
  )?.id;
}

/** A keyword's change, as opt_out.changed tells it; `sender` is the address written to (the shared one too). */
type KeywordChange = { phone: string; scope: string; sender: string; word: string; at: number };

/** Opts out; true when the phone was not opted out of this scope before (or this same message did it). */
async function optOut({ phone, scope, sender, word, at }: KeywordChange, accountId: number | null): Promise<boolean> {
  return await withTx(async (tx) => {
    const inserted = (
      await tx
        .insert(optOuts)
        .values({ phone, scope, source: "keyword", keyword: word, assignedUserId: accountId, createdAt: new Date(at) })
        .onConflictDoNothing()
        .run()
    ).changes;
    if (inserted > 0) {
      const change = { phone, sender, optedOut: true, source: "keyword" as const, keyword: word, at };
      if (accountId !== null) await noteOptOutChanges(accountId, [change]);
      return true;
    }
    // A retried inbound job: the opt-out it made is there, and its reply is found by its reference.
    const existing = await tx
      .select({ createdAt: optOuts.createdAt })
      .from(optOuts)
      .where(and(eq(optOuts.phone, phone), eq(optOuts.scope, scope), eq(optOuts.source, "keyword")))
      .get();
    return existing?.createdAt.getTime() === at;
  });
}

/**
 * Lifts the keyword opt-out; true when there was one. Told to the account the STOP was told to and
 * the one this START is assigned to (docs/decisions/097-keyword-opt-out-events.md).
 */
async function optIn({ phone, scope, sender, word, at }: KeywordChange, accountId: number | null): Promise<boolean> {
  return await withTx(async (tx) => {
    const removed = await tx
      .delete(optOuts)
      .where(and(eq(optOuts.phone, phone), eq(optOuts.scope, scope), eq(optOuts.source, "keyword")))
      .returning({ assignedUserId: optOuts.assignedUserId })
      .all();
    if (removed.length === 0) return false;
    const change = { phone, sender, optedOut: false, source: "keyword" as const, keyword: word, at };
    const told = new Set([accountId, ...removed.map((row) => row.assignedUserId)]);
    for (const userId of told) if (userId !== null) await noteOptOutChanges(userId, [change]);
    return true;
  });
}

/**
 * Applies an inbound message's keyword (its first word, any case): STOP and its synonyms opt the
 * phone out of the sender it wrote to (the shared default sender: of every account sending from it),
 * START and its synonyms lift that, HELP and INFO are answered. A change (and a HELP) gets the
 * admin's reply, free, from the sender written to, within the per-phone limits above; the same
 * inbound message handled twice replies once.
 * Null when the message starts with no keyword (or comes from no phone number).
 */
export async function applyInboundKeyword(inbound: InboundKeyword): Promise<KeywordOutcome> {
  const keyword = keywordOf(inbound.body);
  const phone = /^\d+$/.test(inbound.phone) ? `+${inbound.phone}` : inbound.phone;
  if (!keyword || !isE164(phone)) return null;
  const sender = await findSenderByAddress(inbound.toAddress);
  const from = sender?.address ?? null;
  const scope = scopeOf(from);
  const at = Number(inbound.receivedAt);
  const accountId = inbound.accountId ?? sender?.userId ?? null;

  const change = { phone, scope, sender: from ?? getEnv().SMPP_SOURCE_ADDR, word: keyword.word, at };
  const changed =
    keyword.kind === "stop"
      ? await optOut(change, accountId)
      : keyword.kind === "start"
        ? await optIn(change, accountId)
        : true;
  if (!changed) return { kind: keyword.kind, changed, replyId: null };

  const owner = accountId ?? (await operatorId());
  // One reply per inbound message, however often it is handled.
  const apiRef = `keyword:${scope}:${phone}:${at}`;
  if (owner === undefined || (await autoReplyThrottled(phone, keyword.kind, apiRef)))
    return { kind: keyword.kind, changed, replyId: null };
  const reply = await queueMessage(owner, {
    to: phone,
    body: (await getKeywordReplies())[keyword.kind],
    source: "keyword",
    from,
    apiRef,
  });
  return { kind: keyword.kind, changed, replyId: reply.id };
}
