import { and, count, desc, eq, inArray, lt, ne, or } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { keywordReplies, optOuts } from "#app/db/schema/opt-outs.ts";
import { senders } from "#app/db/schema/senders.ts";
import { clock } from "#app/utils/clock.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import type { OptOutSource } from "#app/db/enums.ts";
import { KeywordOptOutError, OptOutNotFoundError } from "#app/modules/opt-outs/errors.ts";
import { DEFAULT_KEYWORD_REPLIES, KEYWORD_REPLY_KINDS, type KeywordReplyKind } from "#app/modules/opt-outs/keywords.ts";
import { resolveSends } from "#app/modules/opt-outs/enforcement.server.ts";
import { noteOptOutChanges } from "#app/modules/webhooks/account-events.server.ts";

const OPT_OUTS_PAGE_SIZE = 50;

export type OptOut = {
  id: number;
  phone: string;
  source: OptOutSource;
  /** Keyword opt-outs: the sender it was sent to ("" the shared default sender); null for the account's own. */
  scope: string | null;
  keyword: string | null;
  createdAt: Date;
};

/**
 * What this account sees: the numbers it added (by hand or CSV), and the keyword opt-outs assigned
 * to it or sent to one of its senders.
 */
function visibleTo(userId: number) {
  const ownSenders = getDb()
    .select({ address: senders.address })
    .from(senders)
    .where(and(eq(senders.userId, userId), eq(senders.status, "active")));
  return or(
    eq(optOuts.userId, userId),
    eq(optOuts.assignedUserId, userId),
    and(eq(optOuts.source, "keyword"), inArray(optOuts.scope, ownSenders)),
  );
}

const optOutColumns = {
  id: optOuts.id,
  phone: optOuts.phone,
  source: optOuts.source,
  scope: optOuts.scope,
  keyword: optOuts.keyword,
  createdAt: optOuts.createdAt,
};

/** The account's opt-outs, newest first, a page at a time. */
export async function listOptOuts(userId: number, requestedPage = 1) {
  const where = visibleTo(userId);
  const total = (await getDb().select({ n: count() }).from(optOuts).where(where).get())?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, OPT_OUTS_PAGE_SIZE);
  const items: OptOut[] = await getDb()
    .select(optOutColumns)
    .from(optOuts)
    .where(where)
    .orderBy(desc(optOuts.createdAt), desc(optOuts.id))
    .limit(OPT_OUTS_PAGE_SIZE)
    .offset(offset)
    .all();
  return { items, page, totalPages, total };
}

/** One of the account's opt-outs, or OptOutNotFoundError. */
async function getOptOut(userId: number, id: number): Promise<OptOut> {
  const row = await getDb()
    .select(optOutColumns)
    .from(optOuts)
    .where(and(eq(optOuts.id, id), visibleTo(userId)))
    .get();
  if (!row) throw new OptOutNotFoundError();
  return row;
}

/** Adds numbers (E.164) to the account's own list; ones already there stay as they were. Returns how many were new. */
export async function addOptOuts(
  userId: number,
  phones: string[],
  source: Exclude<OptOutSource, "keyword">,
): Promise<number> {
  const unique = [...new Set(phones)];
  if (unique.length === 0) return 0;
  const now = clock.date();
  return await withTx(async (tx) => {
    const added: string[] = [];
    // Chunks keep each statement within SQLite's variable limit.
    for (let i = 0; i < unique.length; i += 500) {
      const rows = unique.slice(i, i + 500).map((phone) => ({ phone, source, userId, createdAt: now }));
      const inserted = await tx
        .insert(optOuts)
        .values(rows)
        .onConflictDoNothing()
        .returning({ phone: optOuts.phone })
        .all();
      added.push(...inserted.map((row) => row.phone));
    }
    const at = now.getTime();
    const change = { sender: null, optedOut: true, source, keyword: null, at };
    await noteOptOutChanges(
      userId,
      added.map((phone) => ({ phone, ...change })),
    );
    return added.length;
  });
}

/** The account's opt-out of this number that it added itself, or undefined. */
export async function findOwnOptOut(userId: number, phone: string): Promise<OptOut | undefined> {
  return await getDb()
    .select(optOutColumns)
    .from(optOuts)
    .where(and(eq(optOuts.userId, userId), eq(optOuts.phone, phone), ne(optOuts.source, "keyword")))
    .get();
}

/**
 * Removes a number the account added itself. Another account's id: OptOutNotFoundError; a keyword
 * opt-out: KeywordOptOutError (only the phone's START lifts it).
 */
export async function removeOptOut(userId: number, id: number): Promise<OptOut> {
  const row = await getOptOut(userId, id);
  if (row.source === "keyword") throw new KeywordOptOutError(row.phone);
  await withTx(async (tx) => {
    await tx
      .delete(optOuts)
      .where(and(eq(optOuts.id, id), eq(optOuts.userId, userId)))
      .run();
    const change = { phone: row.phone, sender: null, optedOut: false, source: row.source, keyword: null };
    await noteOptOutChanges(userId, [{ ...change, at: clock.now() }]);
  });
  return row;
}

/** Whether a send from this account to `phone` (from `from`, else its default sender) would be refused. */
export async function isOptedOut(userId: number, phone: string, from?: string | null): Promise<boolean> {
  return (await optedOutAmong(userId, [phone], from)).has(phone);
}

/** The numbers among `phones` a send from this account (from `from`, else its default) must skip: two queries for all. */
export async function optedOutAmong(userId: number, phones: string[], from?: string | null): Promise<Set<string>> {
  const resolved = await resolveSends(
    userId,
    phones.map((to) => ({ to, from })),
  );
  return new Set(phones.filter((_, i) => resolved[i].optedOut));
}

/** The automatic replies' texts: the admin's, else the defaults. */
export async function getKeywordReplies(): Promise<Record<KeywordReplyKind, string>> {
  const texts = { ...DEFAULT_KEYWORD_REPLIES };
  for (const row of await getDb().select().from(keywordReplies).all()) texts[row.kind] = row.body;
  return texts;
}

/** Sets the automatic replies' texts (validated by the admin's form). */
export async function setKeywordReplies(texts: Record<KeywordReplyKind, string>): Promise<void> {
  const now = clock.date();
  await withTx(async (tx) => {
    for (const kind of KEYWORD_REPLY_KINDS) {
      await tx
        .insert(keywordReplies)
        .values({ kind, body: texts[kind], updatedAt: now })
        .onConflictDoUpdate({ target: keywordReplies.kind, set: { body: texts[kind], updatedAt: now } })
        .run();
    }
  });
}

/** The account's opt-outs with an id below `before`, newest (highest id) first: the REST API's pages. */
export async function listOptOutsBefore(userId: number, before: number, limit: number): Promise<OptOut[]> {
  return await getDb()
    .select(optOutColumns)
    .from(optOuts)
    .where(and(visibleTo(userId), lt(optOuts.id, before)))
    .orderBy(desc(optOuts.id))
    .limit(limit)
    .all();
}

/** The id of the account's newest opt-out it may remove, for the documentation's examples. */
export async function latestOwnOptOutId(userId: number): Promise<number | null> {
  return (
    (
      await getDb()
        .select({ id: optOuts.id })
        .from(optOuts)
        .where(and(eq(optOuts.userId, userId), ne(optOuts.source, "keyword")))
        .orderBy(desc(optOuts.id))
        .get()
    )?.id ?? null
  );
}
