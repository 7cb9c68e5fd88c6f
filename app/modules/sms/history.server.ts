import { and, desc, eq, gt, gte, lt, type SQL, sql } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { inboundMessages } from "#app/db/schema/inbound.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { likeContains } from "#app/utils/sql.server.ts";
import { addDays, instantOf, parseDate } from "#app/utils/time-zone.ts";
import {
  DIRECTIONS,
  type Direction,
  FILTER_FIELDS,
  type FilterErrors,
  filterQuery,
  type FilterValues,
  type HistoryFilters,
  isMessageStatus,
  TEXT_MAX_LENGTH,
  TEXT_MIN_LENGTH,
} from "#app/modules/sms/history-filters.ts";
import { normalizePhone } from "#app/modules/messaging/phone.ts";

const HISTORY_PAGE_SIZE = 10;
/** The spec's banner: the history shows the newest 10,000 messages. */
export const HISTORY_LIMIT = 10_000;
/** "Text contains" looks through this many of the account's newest messages (decision 053). */
export const TEXT_SEARCH_WINDOW = HISTORY_LIMIT;

export type HistoryRow = {
  id: number;
  direction: Direction;
  /** Null for an inbound message (it has no delivery status). */
  status: (typeof smsMessages.$inferSelect)["status"] | null;
  error: string | null;
  toPhone: string;
  /** The sender address of an outbound message (null: the gateway's), the phone of an inbound one. */
  fromPhone: string | null;
  body: string;
  segments: number;
  campaignId: number | null;
  createdAt: Date;
  /** Held by quiet hours until then (null: it was not, or it is inbound). */
  deferredUntil: Date | null;
};

export type HistoryCursor = { after?: number; before?: number };

/** Reads the filters from the URL: the checked filters, the values to show back, and an error per bad field. */
export function parseHistoryFilters(
  params: URLSearchParams,
  timeZone: string,
): { filters: HistoryFilters; values: FilterValues; errors: FilterErrors } {
  const values: FilterValues = {};
  for (const field of FILTER_FIELDS) {
    const value = params.get(field)?.trim();
    if (value) values[field] = value;
  }
  const errors: FilterErrors = {};
  const direction = (DIRECTIONS as readonly string[]).includes(values.direction ?? "")
    ? (values.direction as Direction)
    : "outbound";
  if (values.direction && values.direction !== direction) errors.direction = "Choose outbound or inbound";
  const filters: HistoryFilters = { direction };
  const outboundOnly = (field: "status" | "campaign") => {
    if (direction === "inbound") errors[field] = "Only sent messages have one: choose direction Outbound";
  };
  if (values.status) {
    if (isMessageStatus(values.status)) filters.status = values.status;
    else errors.status = "Choose a status from the list";
    outboundOnly("status");
  }
  if (values.campaign) {
    const id = Number(values.campaign);
    if (Number.isSafeInteger(id) && id > 0) filters.campaign = id;
    else errors.campaign = "Choose a campaign from the list";
    outboundOnly("campaign");
  }
  if (values.phone) {
    const phone = normalizePhone(values.phone, getEnv().DEFAULT_COUNTRY);
    if (phone.ok) filters.phone = phone.e164;
    else errors.phone = `${phone.error}: enter the whole number, e.g. +12025550123`;
  }
  if (values.text) {
    if (values.text.length < TEXT_MIN_LENGTH) errors.text = `Enter at least ${TEXT_MIN_LENGTH} characters`;
    else if (values.text.length > TEXT_MAX_LENGTH) errors.text = `Enter at most ${TEXT_MAX_LENGTH} characters`;
    else filters.text = values.text;
  }
  const from = values.from ? parseDate(values.from) : undefined;
  const to = values.to ? parseDate(values.to) : undefined;
  if (from === null) errors.from = "Enter a date as YYYY-MM-DD";
  if (to === null) errors.to = "Enter a date as YYYY-MM-DD";
  if (from) filters.fromMs = instantOf(from, timeZone).ms;
  if (to) filters.toMs = instantOf(addDays(to, 1), timeZone).ms;
  if (filters.fromMs !== undefined && filters.toMs !== undefined && filters.toMs <= filters.fromMs) {
    errors.to = "The end date must be on or after the start date";
  }
  return { filters, values, errors };
}

/** The account's newest message id outside the text search window (0: the window holds them all). */
async function textWindowFloor(userId: number, direction: Direction): Promise<number> {
  const table = direction === "outbound" ? smsMessages : inboundMessages;
  const row = await getDb()
    .select({ id: table.id })
    .from(table)
    .where(eq(table.userId, userId))
    .orderBy(desc(table.id))
    .limit(1)
    .offset(TEXT_SEARCH_WINDOW)
    .get();
  return row?.id ?? 0;
}

/** One direction's table seen through the filters: its where clause, its order and its row shape. */
async function historyQuery(userId: number, filters: HistoryFilters) {
  const floor = filters.text ? await textWindowFloor(userId, filters.direction) : 0;
  if (filters.direction === "inbound") {
    const t = inboundMessages;
    const where: SQL[] = [eq(t.userId, userId)];
    if (filters.phone) where.push(eq(t.fromPhone, filters.phone));
    if (filters.text) where.push(gt(t.id, floor), likeContains(t.body, filters.text));
    if (filters.fromMs !== undefined) where.push(gte(t.receivedAt, new Date(filters.fromMs)));
    if (filters.toMs !== undefined) where.push(lt(t.receivedAt, new Date(filters.toMs)));
    return {
      table: t,
      id: t.id,
      time: t.receivedAt,
      byTime: false,
      where: and(...where)!,
      columns: {
        id: t.id,
        direction: sql<Direction>`'inbound'`,
        status: sql<null>`null`,
        error: sql<null>`null`,
        toPhone: t.toAddress,
        fromPhone: t.fromPhone,
        body: t.body,
        segments: t.parts,
        campaignId: sql<null>`null`,
        createdAt: t.receivedAt,
        deferredUntil: sql<null>`null`,
      },
    };
  }
  const t = smsMessages;
  const where: SQL[] = [eq(t.userId, userId)];
  if (filters.status) where.push(eq(t.status, filters.status));
  if (filters.phone) where.push(eq(t.toPhone, filters.phone));
  if (filters.campaign) where.push(eq(t.groupSendId, filters.campaign));
  if (filters.text) where.push(gt(t.id, floor), likeContains(t.body, filters.text));
  if (filters.fromMs !== undefined) where.push(gte(t.createdAt, new Date(filters.fromMs)));
  if (filters.toMs !== undefined) where.push(lt(t.createdAt, new Date(filters.toMs)));
  return {
    table: t,
    id: t.id,
    time: t.createdAt,
    // A date range walks the (user, created) index newest first instead of sorting the range by id.
    byTime: filters.fromMs !== undefined || filters.toMs !== undefined,
    where: and(...where)!,
    columns: {
      id: t.id,
      direction: sql<Direction>`'outbound'`,
      status: t.status,
      error: t.error,
      toPhone: t.toPhone,
      fromPhone: t.fromAddress,
      body: t.body,
      segments: t.segments,
      campaignId: t.groupSendId,
      createdAt: t.createdAt,
      deferredUntil: t.deferredUntil,
    },
  };
}

type Query = Awaited<ReturnType<typeof historyQuery>>;

/** Rows after (older than) or before (newer than) the row `id`, in the query's order. */
function beyond(q: Query, id: number, side: "older" | "newer"): SQL {
  const op = side === "older" ? sql`<` : sql`>`;
  if (!q.byTime) return sql`${q.id} ${op} ${id}`;
  const name = q.table === smsMessages ? sql`sms_messages` : sql`inbound_messages`;
  return sql`(${q.time}, ${q.id}) ${op} (select c.${sql.raw(q.time.name)}, c.id from ${name} c where c.id = ${id})`;
}

function newestFirst(q: Query) {
  return q.byTime ? [desc(q.time), desc(q.id)] : [desc(q.id)];
}

/**
 * One page of the user's messages matching the filters, newest first, with the links to its
 * neighbours (carrying the filters). Pages are numbered for the URL, but when the link carries the
 * neighbouring page's last (`after`) or first (`before`) id the rows are found by key on the
 * filter's index, so no page walks over the rows in front of it.
 */
export async function getMessageHistory(
  userId: number,
  requestedPage: number,
  cursor: HistoryCursor = {},
  filters: HistoryFilters = { direction: "outbound" },
  values: FilterValues = {},
) {
  const q = await historyQuery(userId, filters);
  // Counting stops at the limit, so even a million-row history counts 10,000 index entries at most.
  const capped = getDb().select({ id: q.id }).from(q.table).where(q.where).limit(HISTORY_LIMIT).as("capped");
  const total =
    (
      await getDb()
        .select({ n: sql<number>`count(*)` })
        .from(capped)
        .get()
    )?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, HISTORY_PAGE_SIZE);
  const select = () => getDb().select(q.columns).from(q.table);

  let rows: HistoryRow[] = [];
  if (cursor.after !== undefined && page > 1) {
    rows = await select()
      .where(and(q.where, beyond(q, cursor.after, "older")))
      .orderBy(...newestFirst(q))
      .limit(HISTORY_PAGE_SIZE)
      .all();
  } else if (cursor.before !== undefined && page < totalPages) {
    rows = (
      await select()
        .where(and(q.where, beyond(q, cursor.before, "newer")))
        .orderBy(...(q.byTime ? [q.time, q.id] : [q.id]))
        .limit(HISTORY_PAGE_SIZE)
        .all()
    ).reverse();
  }
  // A direct ?page=N (or a cursor that no longer fits) pages by offset, bounded by the limit.
  if (rows.length === 0) {
    rows = await select()
      .where(q.where)
      .orderBy(...newestFirst(q))
      .limit(HISTORY_PAGE_SIZE)
      .offset(offset)
      .all();
  }
  return { messages: rows, page, totalPages, total, ...neighbourLinks(rows, page, totalPages, values) };
}

/** The previous and next pages' links (query strings with the filters), keyed from this page's first and last ids. */
function neighbourLinks(rows: HistoryRow[], page: number, totalPages: number, values: FilterValues) {
  const first = rows[0]?.id;
  const last = rows.at(-1)?.id;
  const firstPage = filterQuery(values, { page: 1 });
  return {
    previousHref:
      page > 1
        ? page === 2 || first === undefined
          ? firstPage
          : filterQuery(values, { page: page - 1, before: first })
        : null,
    nextHref: page < totalPages && last !== undefined ? filterQuery(values, { page: page + 1, after: last }) : null,
  };
}

/** Rows per query of an export: short reads, so other requests run between them. */
export const EXPORT_CHUNK = 1_000;

/**
 * Every message matching the filters (no page limit), newest first, EXPORT_CHUNK rows per call of
 * the returned reader: each call is its own keyed query, so no cursor stays open on the one
 * connection between chunks. Returns [] when done.
 */
export async function historyChunks(userId: number, filters: HistoryFilters): Promise<() => Promise<HistoryRow[]>> {
  const q = await historyQuery(userId, filters);
  let last: number | undefined;
  let done = false;
  return async () => {
    if (done) return [];
    const rows = await getDb()
      .select(q.columns)
      .from(q.table)
      .where(last === undefined ? q.where : and(q.where, beyond(q, last, "older")))
      .orderBy(...newestFirst(q))
      .limit(EXPORT_CHUNK)
      .all();
    done = rows.length < EXPORT_CHUNK;
    last = rows.at(-1)?.id;
    return rows;
  };
}

/** Whether the campaign (group send) is the user's: another account's id in the filter is a 404. */
export async function isOwnCampaign(userId: number, campaignId: number): Promise<boolean> {
  return Boolean(
    await getDb()
      .select({ id: groupSends.id })
      .from(groupSends)
      .where(and(eq(groupSends.id, campaignId), eq(groupSends.userId, userId)))
      .get(),
  );
}

/** The account's campaigns for the filter's list, newest first (the chosen one included even if older). */
export async function campaignChoices(userId: number, chosen?: number) {
  const rows = await getDb()
    .select({ id: groupSends.id, groupName: groupSends.groupName, createdAt: groupSends.createdAt })
    .from(groupSends)
    .where(eq(groupSends.userId, userId))
    .orderBy(desc(groupSends.id))
    .limit(100)
    .all();
  if (chosen && !rows.some((r) => r.id === chosen)) {
    const row = await getDb()
      .select({ id: groupSends.id, groupName: groupSends.groupName, createdAt: groupSends.createdAt })
      .from(groupSends)
      .where(and(eq(groupSends.userId, userId), eq(groupSends.id, chosen)))
      .get();
    if (row) rows.push(row);
  }
  return rows;
}
