import { and, count, desc, eq, gt, lt } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { pageWindow } from "#app/utils/misc.ts";

export const HISTORY_PAGE_SIZE = 10;
/** The spec's banner: the history shows the newest 10,000 messages. */
export const HISTORY_LIMIT = 10_000;

const columns = {
  id: smsMessages.id,
  status: smsMessages.status,
  error: smsMessages.error,
  toPhone: smsMessages.toPhone,
  body: smsMessages.body,
  segments: smsMessages.segments,
  createdAt: smsMessages.createdAt,
  deferredUntil: smsMessages.deferredUntil,
};

export type HistoryCursor = { after?: number; before?: number };

/**
 * One page of the user's messages, newest first, with the links to its neighbours. Pages are
 * numbered for the URL, but when the link carries the neighbouring page's last (`after`) or first
 * (`before`) id the rows are found by key on the (user_id, id) index, so no page walks over the
 * rows in front of it.
 */
export function getMessageHistory(userId: number, requestedPage: number, cursor: HistoryCursor = {}) {
  // Counting stops at the limit, so even a million-row history counts 10,000 index entries at most.
  const capped = getDb()
    .select({ id: smsMessages.id })
    .from(smsMessages)
    .where(eq(smsMessages.userId, userId))
    .limit(HISTORY_LIMIT)
    .as("capped");
  const total = getDb().select({ n: count() }).from(capped).get()?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, HISTORY_PAGE_SIZE);

  let rows: HistoryRow[] = [];
  if (cursor.after !== undefined && page > 1) {
    rows = getDb()
      .select(columns)
      .from(smsMessages)
      .where(and(eq(smsMessages.userId, userId), lt(smsMessages.id, cursor.after)))
      .orderBy(desc(smsMessages.id))
      .limit(HISTORY_PAGE_SIZE)
      .all();
  } else if (cursor.before !== undefined && page < totalPages) {
    rows = getDb()
      .select(columns)
      .from(smsMessages)
      .where(and(eq(smsMessages.userId, userId), gt(smsMessages.id, cursor.before)))
      .orderBy(smsMessages.id)
      .limit(HISTORY_PAGE_SIZE)
      .all()
      .reverse();
  }
  // A direct ?page=N (or a cursor that no longer fits) pages by offset, bounded by the limit.
  if (rows.length === 0) {
    rows = getDb()
      .select(columns)
      .from(smsMessages)
      .where(eq(smsMessages.userId, userId))
      .orderBy(desc(smsMessages.id))
      .limit(HISTORY_PAGE_SIZE)
      .offset(offset)
      .all();
  }
  return { messages: rows, page, totalPages, total, ...neighbourLinks(rows, page, totalPages) };
}

/** The previous and next pages' links (query strings), keyed from this page's first and last ids. */
function neighbourLinks(rows: HistoryRow[], page: number, totalPages: number) {
  const first = rows[0]?.id;
  const last = rows.at(-1)?.id;
  return {
    previousHref:
      page > 1 ? (page === 2 || first === undefined ? "?page=1" : `?page=${page - 1}&before=${first}`) : null,
    nextHref: page < totalPages && last !== undefined ? `?page=${page + 1}&after=${last}` : null,
  };
}

export type HistoryRow = {
  id: number;
  status: (typeof smsMessages.$inferSelect)["status"];
  error: string | null;
  toPhone: string;
  body: string;
  segments: number;
  createdAt: Date;
  /** Held by quiet hours until then (null: it was not). */
  deferredUntil: Date | null;
};
