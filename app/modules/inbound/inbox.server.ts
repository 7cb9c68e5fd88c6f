// The inbox: one account's conversations (phones that wrote to it) and each thread, both directions.
// The owner's id is in every WHERE clause: another account's conversation is simply not there.
import { inTransaction } from "#app/db/client.server.ts";
import { statement, statementFor } from "#app/db/statements.server.ts";
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

const countConversations = statement<[number], { n: number }>(
  "select count(distinct from_phone) as n from inbound_messages where user_id = ?",
);
// Ordered by the newest message either way: a reply moves its conversation up too.
const selectConversations = statement<
  [{ userId: number; limit: number; offset: number }],
  { phone: string; unread: number; lastInAt: number; lastInId: number; lastOutAt: number | null }
>(
  `with conversations as (
     select from_phone as phone, sum(read_at is null) as unread, max(received_at) as lastInAt, max(id) as lastInId
     from inbound_messages where user_id = @userId group by from_phone
   )
   select phone, unread, lastInAt, lastInId,
     (select max(created_at) from sms_messages m where m.to_phone = conversations.phone and m.user_id = @userId) as lastOutAt
   from conversations
   order by max(lastInAt, coalesce(lastOutAt, 0)) desc, phone
   limit @limit offset @offset`,
);
const selectInboundBody = statement<[number], { body: string }>("select body from inbound_messages where id = ?");
const selectLastOutbound = statement<[string, number], { body: string }>(
  "select body from sms_messages where to_phone = ? and user_id = ? order by created_at desc, id desc limit 1",
);
const selectContactName = statement<[number, string], { name: string }>(
  "select name from contacts where user_id = ? and phone = ?",
);
const hasConversation = statement<[number, string], { id: number }>(
  "select id from inbound_messages where user_id = ? and from_phone = ? limit 1",
);
const countThread = statement<[{ userId: number; phone: string }], { n: number }>(
  `select (select count(*) from inbound_messages where user_id = @userId and from_phone = @phone)
        + (select count(*) from sms_messages where user_id = @userId and to_phone = @phone) as n`,
);
type ThreadRow = {
  direction: "inbound" | "outbound";
  id: number;
  body: string;
  at: number;
  readAt: number | null;
  status: MessageStatus | null;
  error: string | null;
};
const selectThread = statement<[{ userId: number; phone: string; limit: number; offset: number }], ThreadRow>(
  `select 'inbound' as direction, id, body, received_at as at, read_at as readAt, null as status, null as error
     from inbound_messages where user_id = @userId and from_phone = @phone
   union all
   select 'outbound', id, body, created_at, null, status, error
     from sms_messages where user_id = @userId and to_phone = @phone
   order by at desc, id desc limit @limit offset @offset`,
);
const selectLastTo = statement<[number, string], { toAddress: string }>(
  "select to_address as toAddress from inbound_messages where user_id = ? and from_phone = ? order by id desc limit 1",
);
const markRead = statement<[number, number, string]>(
  "update inbound_messages set read_at = ? where user_id = ? and from_phone = ? and read_at is null",
);
const countThreadUnread = statement<[number, string], { n: number }>(
  "select count(*) as n from inbound_messages where user_id = ? and from_phone = ? and read_at is null",
);
const countUnread = statement<[number], { n: number }>(
  "select count(*) as n from inbound_messages where user_id = ? and read_at is null",
);

/** One page of the account's conversations, newest first. */
export function listConversations(userId: number, requestedPage: number) {
  const total = countConversations().get(userId)?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, CONVERSATIONS_PAGE_SIZE);
  const conversations: Conversation[] = selectConversations()
    .all({ userId, limit: CONVERSATIONS_PAGE_SIZE, offset })
    .map((row) => {
      const outboundNewer = row.lastOutAt !== null && row.lastOutAt > row.lastInAt;
      return {
        phone: row.phone,
        contactName: selectContactName().get(userId, row.phone)?.name ?? null,
        unread: row.unread,
        lastAt: outboundNewer ? row.lastOutAt! : row.lastInAt,
        lastBody: outboundNewer
          ? (selectLastOutbound().get(row.phone, userId)?.body ?? "")
          : (selectInboundBody().get(row.lastInId)?.body ?? ""),
        lastDirection: outboundNewer ? "outbound" : "inbound",
      };
    });
  return { conversations, page, totalPages, total };
}

/** Whether `phone` ever wrote to this account (a thread exists). */
export function hasThread(userId: number, phone: string): boolean {
  return hasConversation().get(userId, phone) !== undefined;
}

/**
 * One page of the thread with `phone`, oldest first on the page (page 1 is the newest), or null
 * when the phone never wrote to this account.
 */
export function getThread(userId: number, phone: string, requestedPage: number) {
  if (!hasThread(userId, phone)) return null;
  const total = countThread().get({ userId, phone })?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, THREAD_PAGE_SIZE);
  const messages: ThreadMessage[] = selectThread()
    .all({ userId, phone, limit: THREAD_PAGE_SIZE, offset })
    .reverse()
    .map((row) =>
      row.direction === "inbound"
        ? { direction: "inbound", id: row.id, body: row.body, at: row.at, readAt: row.readAt }
        : { direction: "outbound", id: row.id, body: row.body, at: row.at, status: row.status!, error: row.error },
    );
  const unread = countThreadUnread().get(userId, phone)?.n ?? 0;
  return {
    phone,
    contactName: selectContactName().get(userId, phone)?.name ?? null,
    messages,
    page,
    totalPages,
    unread,
    lastTo: selectLastTo().get(userId, phone)?.toAddress ?? null,
  };
}

/**
 * The sender a reply in the thread goes from: the one of the account's senders the phone last wrote
 * to, or undefined (the shared sender, or one no longer the account's: the account's default).
 */
export function replySender(userId: number, lastTo: string | null): string | undefined {
  const sender = lastTo ? findSenderByAddress(lastTo) : null;
  return sender?.userId === userId ? sender.address : undefined;
}

/** Marks what `phone` sent this account as read. */
export function markThreadRead(userId: number, phone: string): void {
  inTransaction(() => markRead().run(clock.now(), userId, phone));
}

export function unreadInboundCount(userId: number): number {
  return countUnread().get(userId)?.n ?? 0;
}

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
const countUnassigned = statement<[], { n: number }>(
  "select count(*) as n from inbound_messages where user_id is null",
);
const selectUnassigned = statement<[number, number], InboundRow>(
  `select ${INBOUND_COLUMNS} from inbound_messages where user_id is null order by id desc limit ? offset ?`,
);

export type InboundFilters = { from?: string; to?: string; receivedAfter?: number; receivedBefore?: number };

/** The account's inbound messages, newest first, ids below `before`, matching every filter (the API's keyset pages). */
export function ownInboundBefore(
  userId: number,
  options: InboundFilters & { before: number; limit: number },
): InboundRow[] {
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
  return statementFor<unknown[], InboundRow>(source).all(...values, options.limit);
}

const UNASSIGNED_PAGE_SIZE = 20;
/** The accounts named as a reply's candidates; past this many the admin looks the phone up. */
const MAX_CANDIDATES = 5;

export type CandidateAccount = { id: number; email: string; fullName: string };

const selectAccounts = statement<[string], CandidateAccount>(
  "select id, email, full_name as fullName from users where id in (select value from json_each(?)) order by id",
);

/** The accounts that wrote to the phone from the shared sender in the 30 days before it answered. */
function candidatesOf(message: InboundRow): CandidateAccount[] {
  if (!isSharedSenderAddress(message.to)) return [];
  const ids = sharedSenderWriters(message.from, message.receivedAt, MAX_CANDIDATES);
  return ids.length === 0 ? [] : selectAccounts().all(JSON.stringify(ids));
}

/**
 * Inbound messages nobody owns (an admin's list), newest first; each with the accounts it may
 * answer (on the shared sender: those that wrote to the phone in the window).
 */
export function listUnassignedInbound(requestedPage: number) {
  const total = countUnassigned().get()?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, UNASSIGNED_PAGE_SIZE);
  const messages = selectUnassigned()
    .all(UNASSIGNED_PAGE_SIZE, offset)
    .map((message) => ({ ...message, candidates: candidatesOf(message) }));
  return { messages, page, totalPages, total };
}

const claimUnassigned = statement<[number, number], InboundRow>(
  `update inbound_messages set user_id = ? where id = ? and user_id is null returning ${INBOUND_COLUMNS}`,
);

/**
 * An admin gives an unassigned message to an account: from then on it is in that account's inbox
 * and API, and its message.received event goes out as for a message routed on arrival. Once: false
 * when the message is no longer unassigned (someone assigned it first, or it was deleted).
 */
export function assignInbound(messageId: number, userId: number): boolean {
  return inTransaction(() => {
    const message = claimUnassigned().get(userId, messageId);
    if (!message) return false;
    noteMessageReceived(userId, message, clock.now());
    return true;
  });
}
