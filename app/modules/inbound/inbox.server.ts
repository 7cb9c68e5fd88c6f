// The inbox: one account's conversations (phones that wrote to it) and each thread, both directions.
// The owner's id is in every WHERE clause: another account's conversation is simply not there.
import { withTx } from "#app/db/client.server.ts";
import { sqlText, statementFor, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import type { InboundEncoding } from "#app/db/schema/inbound.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import { findSenderByAddress, isSharedSenderAddress } from "#app/modules/senders/senders.server.ts";
import { sharedSenderWriters } from "#app/modules/inbound/receive.server.ts";
import { noteMessageReceived } from "#app/modules/webhooks/account-events.server.ts";

const CONVERSATIONS_PAGE_SIZE = 20;
const THREAD_PAGE_SIZE = 50;

export type Conversation = {
  phone: string;
  contactName: string | null;
  unread: number;
  lastAt: number;
  lastBody: string;
  lastDirection: "inbound" | "outbound";
};

export type ThreadMessage =
  | { direction: "inbound"; id: number; body: string; at: number; readAt: number | null }
  | { direction: "outbound"; id: number; body: string; at: number; status: MessageStatus; error: string | null };

type ThreadRow = {
  direction: "inbound" | "outbound";
  id: number;
  body: string;
  at: number;
  readAt: number | null;
  status: MessageStatus | null;
  error: string | null;
};

export type InboundRow = {
  id: number;
  from: string;
  to: string;
  body: string;
  encoding: InboundEncoding;
  parts: number;
  receivedAt: number;
};

const INBOUND_COLUMNS = `id, from_phone as "from", to_address as "to", body, encoding, parts, received_at as receivedAt`;

export type CandidateAccount = { id: number; email: string; fullName: string };

const queries = statements({
  countConversations: sqlText<[number], { n: number }>(
    "select count(distinct from_phone) as n from inbound_messages where user_id = ?",
  ),
  // Ordered by the newest message either way: a reply moves its conversation up too.
  conversations: sqlText<
    [{ userId: number; limit: number; offset: number }],
    { phone: string; unread: number; lastInAt: number; lastInId: number; lastOutAt: number | null }
  >({
    sqlite: `with conversations as (
     select from_phone as phone, sum(read_at is null) as unread, max(received_at) as lastInAt, max(id) as lastInId
     from inbound_messages where user_id = @userId group by from_phone
   )
   select phone, unread, lastInAt, lastInId,
     (select max(created_at) from sms_messages m where m.to_phone = conversations.phone and m.user_id = @userId) as lastOutAt
   from conversations
   order by max(lastInAt, coalesce(lastOutAt, 0)) desc, phone
   limit @limit offset @offset`,
    postgres: `with conversations as (
     select from_phone as phone, count(*) filter (where read_at is null) as unread, max(received_at) as "lastInAt",
       max(id) as "lastInId"
     from inbound_messages where user_id = @userId group by from_phone
   )
   select * from (
     select phone, unread, "lastInAt", "lastInId",
       (select max(created_at) from sms_messages m where m.to_phone = conversations.phone and m.user_id = @userId) as "lastOutAt"
     from conversations
   ) c
   order by greatest("lastInAt", coalesce("lastOutAt", 0)) desc, phone
   limit @limit offset @offset`,
  }),
  inboundBody: sqlText<[number], { body: string }>("select body from inbound_messages where id = ?"),
  lastOutbound: sqlText<[string, number], { body: string }>(
    "select body from sms_messages where to_phone = ? and user_id = ? order by created_at desc, id desc limit 1",
  ),
  contactName: sqlText<[number, string], { name: string }>("select name from contacts where user_id = ? and phone = ?"),
  hasConversation: sqlText<[number, string], { id: number }>(
    "select id from inbound_messages where user_id = ? and from_phone = ? limit 1",
  ),
  countThread: sqlText<[{ userId: number; phone: string }], { n: number }>(
    `select (select count(*) from inbound_messages where user_id = @userId and from_phone = @phone)
        + (select count(*) from sms_messages where user_id = @userId and to_phone = @phone) as n`,
  ),
  thread: sqlText<[{ userId: number; phone: string; limit: number; offset: number }], ThreadRow>({
    sqlite: `select 'inbound' as direction, id, body, received_at as at, read_at as readAt, null as status, null as error
     from inbound_messages where user_id = @userId and from_phone = @phone
   union all
   select 'outbound', id, body, created_at, null, status, error
     from sms_messages where user_id = @userId and to_phone = @phone
   order by at desc, id desc limit @limit offset @offset`,
    postgres: `select 'inbound' as direction, id, body, received_at as at, read_at as "readAt", null as status, null as error
     from inbound_messages where user_id = @userId and from_phone = @phone
   union all
   select 'outbound', id, body, created_at, null, status, error
     from sms_messages where user_id = @userId and to_phone = @phone
   order by at desc, id desc limit @limit offset @offset`,
  }),
  lastTo: sqlText<[number, string], { toAddress: string }>(
    "select to_address as toAddress from inbound_messages where user_id = ? and from_phone = ? order by id desc limit 1",
  ),
  markRead: sqlText<[number, number, string]>(
    "update inbound_messages set read_at = ? where user_id = ? and from_phone = ? and read_at is null",
  ),
  countThreadUnread: sqlText<[number, string], { n: number }>(
    "select count(*) as n from inbound_messages where user_id = ? and from_phone = ? and read_at is null",
  ),
  countUnread: sqlText<[number], { n: number }>(
    "select count(*) as n from inbound_messages where user_id = ? and read_at is null",
  ),
  countUnassigned: sqlText<[], { n: number }>("select count(*) as n from inbound_messages where user_id is null"),
  unassigned: sqlText<[number, number], InboundRow>(
    `select ${INBOUND_COLUMNS} from inbound_messages where user_id is null order by id desc limit ? offset ?`,
  ),
  accounts: sqlText<[string], CandidateAccount>({
    sqlite:
      "select id, email, full_name as fullName from users where id in (select value from jsonb_each(?)) order by id",
    postgres: `select id, email, full_name as "fullName" from users where id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb))) order by id`,
  }),
  claimUnassigned: sqlText<[number, number], InboundRow>(
    `update inbound_messages set user_id = ? where id = ? and user_id is null returning ${INBOUND_COLUMNS}`,
  ),
});

/** One page of the account's conversations, newest first. */
export async function listConversations(userId: number, requestedPage: number) {
  const total = (await queries.countConversations.get(userId))?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, CONVERSATIONS_PAGE_SIZE);
  const rows = await queries.conversations.all({ userId, limit: CONVERSATIONS_PAGE_SIZE, offset });
  const conversations: Conversation[] = await Promise.all(
    rows.map(async (row) => {
      const outboundNewer = row.lastOutAt !== null && row.lastOutAt > row.lastInAt;
      return {
        phone: row.phone,
        contactName: (await queries.contactName.get(userId, row.phone))?.name ?? null,
        unread: row.unread,
        lastAt: outboundNewer ? row.lastOutAt! : row.lastInAt,
        lastBody: outboundNewer
          ? ((await queries.lastOutbound.get(row.phone, userId))?.body ?? "")
          : ((await queries.inboundBody.get(row.lastInId))?.body ?? ""),
        lastDirection: outboundNewer ? "outbound" : "inbound",
      } as const;
    }),
  );
  return { conversations, page, totalPages, total };
}

/** Whether `phone` ever wrote to this account (a thread exists). */
export async function hasThread(userId: number, phone: string): Promise<boolean> {
  return (await queries.hasConversation.get(userId, phone)) !== undefined;
}

/**
 * One page of the thread with `phone`, oldest first on the page (page 1 is the newest), or null
 * when the phone never wrote to this account.
 */
export async function getThread(userId: number, phone: string, requestedPage: number) {
  if (!(await hasThread(userId, phone))) return null;
  const total = (await queries.countThread.get({ userId, phone }))?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, THREAD_PAGE_SIZE);
  const messages: ThreadMessage[] = (await queries.thread.all({ userId, phone, limit: THREAD_PAGE_SIZE, offset }))
    .reverse()
    .map((row) =>
      row.direction === "inbound"
        ? { direction: "inbound", id: row.id, body: row.body, at: row.at, readAt: row.readAt }
        : { direction: "outbound", id: row.id, body: row.body, at: row.at, status: row.status!, error: row.error },
    );
  const unread = (await queries.countThreadUnread.get(userId, phone))?.n ?? 0;
  return {
    phone,
    contactName: (await queries.contactName.get(userId, phone))?.name ?? null,
    messages,
    page,
    totalPages,
    unread,
    lastTo: (await queries.lastTo.get(userId, phone))?.toAddress ?? null,
  };
}

/**
 * The sender a reply in the thread goes from: the one of the account's senders the phone last wrote
 * to, or undefined (the shared sender, or one no longer the account's: the account's default).
 */
export async function replySender(userId: number, lastTo: string | null): Promise<string | undefined> {
  const sender = lastTo ? await findSenderByAddress(lastTo) : null;
  return sender?.userId === userId ? sender.address : undefined;
}

/** Marks what `phone` sent this account as read. */
export async function markThreadRead(userId: number, phone: string): Promise<void> {
  await withTx(() => queries.markRead.run(clock.now(), userId, phone));
}

export async function unreadInboundCount(userId: number): Promise<number> {
  return (await queries.countUnread.get(userId))?.n ?? 0;
}

export type InboundFilters = { from?: string; to?: string; receivedAfter?: number; receivedBefore?: number };

/** The account's inbound messages, newest first, ids below `before`, matching every filter (the API's keyset pages). */
export async function ownInboundBefore(
  userId: number,
  options: InboundFilters & { before: number; limit: number },
): Promise<InboundRow[]> {
  const where = ["user_id = ?"];
  const values: unknown[] = [userId];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    values.push(value);
  };
  if (options.from !== undefined) add("from_phone = ?", options.from);
  if (options.to !== undefined) add("to_address = ?", options.to);
  if (options.receivedAfter !== undefined) add("received_at >= ?", options.receivedAfter);
  if (options.receivedBefore !== undefined) add("received_at < ?", options.receivedBefore);
  add("id < ?", options.before);
  const source = `select ${INBOUND_COLUMNS} from inbound_messages where ${where.join(" and ")} order by id desc limit ?`;
  return await statementFor<unknown[], InboundRow>(source).all(...values, options.limit);
}

const UNASSIGNED_PAGE_SIZE = 20;
/** The accounts named as a reply's candidates; past this many the admin looks the phone up. */
const MAX_CANDIDATES = 5;

/** The accounts that wrote to the phone from the shared sender in the 30 days before it answered. */
async function candidatesOf(message: InboundRow): Promise<CandidateAccount[]> {
  if (!isSharedSenderAddress(message.to)) return [];
  const ids = await sharedSenderWriters(message.from, message.receivedAt, MAX_CANDIDATES);
  return ids.length === 0 ? [] : await queries.accounts.all(JSON.stringify(ids));
}

/**
 * Inbound messages nobody owns (an admin's list), newest first; each with the accounts it may
 * answer (on the shared sender: those that wrote to the phone in the window).
 */
export async function listUnassignedInbound(requestedPage: number) {
  const total = (await queries.countUnassigned.get())?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, UNASSIGNED_PAGE_SIZE);
  const unassigned = await queries.unassigned.all(UNASSIGNED_PAGE_SIZE, offset);
  const messages = await Promise.all(
    unassigned.map(async (message) => ({ ...message, candidates: await candidatesOf(message) })),
  );
  return { messages, page, totalPages, total };
}

/**
 * An admin gives an unassigned message to an account: from then on it is in that account's inbox
 * and API, and its message.received event goes out as for a message routed on arrival. Once: false
 * when the message is no longer unassigned (someone assigned it first, or it was deleted).
 */
export async function assignInbound(messageId: number, userId: number): Promise<boolean> {
  return await withTx(async () => {
    const message = await queries.claimUnassigned.get(userId, messageId);
    if (!message) return false;
    await noteMessageReceived(userId, message, clock.now());
    return true;
  });
}
