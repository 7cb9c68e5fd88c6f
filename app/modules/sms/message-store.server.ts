// The SQL that writes messages, their parts, their outbox rows and early receipts. A status change
// is a conditional UPDATE from its event's statuses (message-status.ts): 0 rows means refused.
import {
  inSharedTurn,
  runningTransaction,
  usesPostgres,
  withTx,
  withTxWithoutStalling,
} from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { addToRollup, type RollupChange } from "#app/db/rollup-counts.server.ts";
import type { MessageSource } from "#app/db/schema/sms.ts";
import type { SubmitAttemptOutcome } from "#app/db/schema/sms-attempts.ts";
import {
  fromStatuses,
  type InitialStatus,
  isFinal,
  rollupOutcome,
  type MessageEvent,
  type MessageStatus,
} from "#app/modules/messaging/message-status.ts";
import type { SegmentCount, SmsEncoding } from "#app/modules/messaging/segments.ts";

/** The SQL condition under which `event` may move a row: its status is one of the event's `from`. */
function whereFrom(event: MessageEvent): string {
  const statuses = fromStatuses(event).map((status) => `'${status}'`);
  return statuses.length === 1 ? `status = ${statuses[0]}` : `status in (${statuses.join(", ")})`;
}

export type NewMessage = {
  /** E.164; validate user input with phone.ts first. */
  to: string;
  /** Already within SMS_MAX_SEGMENTS (messageBodyField checks it). */
  body: string;
  source?: MessageSource;
  /** The sender address it goes out from (one of the account's senders); absent: the gateway's default. */
  from?: string | null;
  /** A schedule's occurrence: (scheduleId, occurrenceAt) is unique, so a duplicate tick sends nothing. */
  scheduleId?: number;
  occurrenceAt?: Date | number;
  /** A group send's member: (groupSendId, contactId) is unique, so a retried fan-out sends nothing twice. */
  groupSendId?: number;
  contactId?: number;
  /** An API client's idempotency reference, unique per user. */
  apiRef?: string;
  /** Hold it back for the account's quiet hours (quiet-hours module); false or absent: it goes now. */
  respectQuietHours?: boolean;
  /** Set by queueMessages: quiet hours hold it until then (UTC ms). */
  deferredUntil?: number;
  /** An API send's own webhook URL for its message.* events (checked by the caller). */
  statusCallback?: string;
  /** The API key that sent it (its journey names the key). */
  apiKeyId?: number;
};

/** A message found instead of inserted: the same schedule occurrence, API reference or group member. */
export type ExistingMessage = {
  id: number;
  encoding: SmsEncoding;
  segments: number;
  credits: number;
  createdAt: number;
};

export type MessageToStore = {
  message: NewMessage;
  count: SegmentCount;
  initial: { status: InitialStatus; credits: number; error: string | null };
};

export type StoredMessage = { id: number; duplicate: false } | (ExistingMessage & { duplicate: true });

/** The columns a message is unique by (null where it has none): a schedule occurrence, an API reference, a group member. */
type DedupeKey = {
  scheduleId: number | null;
  occurrenceAt: number | null;
  apiRef: string | null;
  groupSendId: number | null;
  contactId: number | null;
};

const dedupeKeyOf = (message: NewMessage): DedupeKey => ({
  scheduleId: message.scheduleId ?? null,
  occurrenceAt: message.occurrenceAt === undefined ? null : Number(message.occurrenceAt),
  apiRef: message.apiRef ?? null,
  groupSendId: message.groupSendId ?? null,
  contactId: message.contactId ?? null,
});

const hasDedupeKey = (key: DedupeKey): boolean =>
  key.scheduleId !== null || key.apiRef !== null || key.groupSendId !== null;

const sameDedupeKey = (a: DedupeKey, b: DedupeKey): boolean =>
  a.scheduleId === b.scheduleId &&
  a.occurrenceAt === b.occurrenceAt &&
  a.apiRef === b.apiRef &&
  a.groupSendId === b.groupSendId &&
  a.contactId === b.contactId;

export type SendRow = {
  id: number;
  userId: number;
  toPhone: string;
  fromAddress: string | null;
  source: MessageSource;
  body: string;
  segments: number;
  status: MessageStatus;
  attempts: number;
  /** 1 when an admin has disabled the owner's account: nothing of it goes out. */
  ownerDisabled: number;
};
export type PartRow = {
  providerId: string;
  messageId: number;
  part: number;
  partStatus: MessageStatus;
  messageStatus: MessageStatus;
  segments: number;
  /** When the part last changed: its acceptance, until a receipt moves it (the receipt delay metric). */
  updatedAt: number;
};
export type StoredStatus = { status: MessageStatus; error: string | null };
/** What a receipt says of the part its provider id names. */
export type PartReceipt = { providerId: string } & StoredStatus;
/** A part the SMSC accepted, with the provider id its receipts will name. */
export type AcceptedPart = { messageId: number; part: number; providerId: string };
/** A part's receipt to write: `from` is the status it was read in (the guard), then what it moves to. */
export type PartMove = { messageId: number; part: number; from: MessageStatus } & StoredStatus;
/** A message's move by its parts' receipts, from the status it was read in. */
export type MessageMove = { id: number; from: MessageStatus } & StoredStatus;
export type PendingReceipt = { id: number } & PartReceipt;

// PostgreSQL's INSERTs of accepted parts and of submit attempts, `now` in $1 and the rows (one JSON
// parameter) in `rows`: each a statement of its own, and both in storeAnswers.
const pgInsertParts = (
  rows: string,
) => `insert into sms_message_parts (message_id, part, provider_id, status, updated_at)
   select a."messageId", a.part, a."providerId", 'submitted', $1::bigint
   from jsonb_to_recordset(${rows}::jsonb) as a("messageId" bigint, part bigint, "providerId" text)
   on conflict do nothing`;
const pgInsertAttempts = (
  rows: string,
) => `insert into sms_submit_attempts (message_id, attempted_at, upstream, bind, outcome, command_status, provider_ids, error)
   select (value ->> 0)::bigint, $1::bigint, value ->> 1, value ->> 2, value ->> 3, (value ->> 4)::bigint, value ->> 5, value ->> 6
   from jsonb_array_elements(${rows}::jsonb)`;

// The key spaces of lockMessageStates' advisory locks (the two-integer form, apart from the turns'
// single keys): "smpp" for provider ids, "smmi" for message ids, in ASCII.
const PROVIDER_ID_LOCKS = 0x736d7070;
const MESSAGE_LOCKS = 0x736d6d69;

const queries = statements({
  // The whole batch is one JSON parameter, so one prepared statement serves every batch size; each
  // message is an array of its columns in the order written here (measured: reading positions costs
  // two thirds of reading keys). Rows go in the array's order, so their ids rise with it; a repeat of a
  // unique key (an earlier message, or one before it in the batch) is skipped.
  insertMessages: sqlText<[number, number, number, string], DedupeKey & { id: number }>({
    sqlite: `insert into sms_messages
     (user_id, created_at, updated_at, to_phone, from_address, body, encoding, segments, credits, status, error, source,
      schedule_id, occurrence_at, api_ref, group_send_id, contact_id, deferred_until, done_at, api_key_id)
   select ?, ?, ?, m.value ->> 0, m.value ->> 1, m.value ->> 2, m.value ->> 3, m.value ->> 4, m.value ->> 5,
     m.value ->> 6, m.value ->> 7, m.value ->> 8, m.value ->> 9, m.value ->> 10, m.value ->> 11, m.value ->> 12,
     m.value ->> 13, m.value ->> 14, m.value ->> 15, m.value ->> 16
   from jsonb_each(?) m
   where true
   order by m.key
   on conflict do nothing
   returning id, schedule_id as scheduleId, occurrence_at as occurrenceAt, api_ref as apiRef,
     group_send_id as groupSendId, contact_id as contactId`,
    postgres: `insert into sms_messages
     (user_id, created_at, updated_at, to_phone, from_address, body, encoding, segments, credits, status, error, source,
      schedule_id, occurrence_at, api_ref, group_send_id, contact_id, deferred_until, done_at, api_key_id)
   select $1::bigint, $2::bigint, $3::bigint, m.value ->> 0, m.value ->> 1, m.value ->> 2, m.value ->> 3,
     (m.value ->> 4)::bigint, (m.value ->> 5)::bigint, m.value ->> 6, m.value ->> 7, m.value ->> 8,
     (m.value ->> 9)::bigint, (m.value ->> 10)::bigint, m.value ->> 11, (m.value ->> 12)::bigint,
     (m.value ->> 13)::bigint, (m.value ->> 14)::bigint, (m.value ->> 15)::bigint, (m.value ->> 16)::bigint
   from jsonb_array_elements($4::jsonb) with ordinality m(value, key)
   order by m.key
   on conflict do nothing
   returning id, schedule_id as "scheduleId", occurrence_at as "occurrenceAt", api_ref as "apiRef",
     group_send_id as "groupSendId", contact_id as "contactId"`,
  }),
  // The earlier messages of the skipped ones, by their place in the JSON array.
  duplicates: sqlText<[string, number], ExistingMessage & { input: number }>({
    sqlite: `select d.key as input, m.id, m.encoding, m.segments, m.credits, m.created_at as createdAt
   from jsonb_each(?) d join sms_messages m
     on (m.schedule_id = d.value ->> '$.scheduleId' and m.occurrence_at = d.value ->> '$.occurrenceAt')
       or (m.user_id = ? and m.api_ref = d.value ->> '$.apiRef')
       or (m.group_send_id = d.value ->> '$.groupSendId' and m.contact_id = d.value ->> '$.contactId')`,
    postgres: `select d.key - 1 as input, m.id, m.encoding, m.segments, m.credits, m.created_at as "createdAt"
   from jsonb_array_elements($1::jsonb) with ordinality d(value, key) join sms_messages m
     on (m.schedule_id = (d.value ->> 'scheduleId')::bigint and m.occurrence_at = (d.value ->> 'occurrenceAt')::bigint)
       or (m.user_id = $2 and m.api_ref = d.value ->> 'apiRef')
       or (m.group_send_id = (d.value ->> 'groupSendId')::bigint and m.contact_id = (d.value ->> 'contactId')::bigint)`,
  }),
  // A job's messages in one read: the ids travel as a JSON array.
  toSend: sqlText<[string], SendRow>({
    sqlite: `select id, user_id as userId, to_phone as toPhone, from_address as fromAddress, source, body, segments, status, attempts,
     (select disabled_at is not null from users where users.id = sms_messages.user_id) as ownerDisabled
   from sms_messages
   where id in (select value from jsonb_each(?)) and ${whereFrom("claim")}`,
    postgres: `select id, user_id as "userId", to_phone as "toPhone", from_address as "fromAddress", source, body, segments, status, attempts,
     (select disabled_at is not null from users where users.id = sms_messages.user_id) as "ownerDisabled"
   from sms_messages
   where id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb))) and ${whereFrom("claim")}`,
  }),
  partsOf: sqlText<[string], { messageId: number; part: number } & StoredStatus>({
    sqlite: `select message_id as messageId, part, status, error from sms_message_parts
   where message_id in (select value from jsonb_each(?)) order by message_id, part`,
    postgres: `select message_id as "messageId", part, status, error from sms_message_parts
   where message_id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb))) order by message_id, part`,
  }),
  // PostgreSQL only (lockMessageStates): transaction-scoped advisory locks, each set taken in key
  // order, the provider ids' before the messages', so two such transactions never wait in a circle.
  // SQLite never runs these (its one writer is the lock); its texts only keep the table's keys alike.
  lockProviderIds: sqlText<[string]>({
    sqlite: `select ? where 0`,
    postgres: `select pg_advisory_xact_lock(${PROVIDER_ID_LOCKS}, h)
   from (select distinct hashtext(value) as h from jsonb_array_elements_text($1::jsonb) order by h) keys`,
  }),
  // The messages named, and those the provider ids' parts belong to (read after their locks were taken).
  lockMessageIds: sqlText<[string, string]>({
    sqlite: `select ?, ? where 0`,
    postgres: `select pg_advisory_xact_lock(${MESSAGE_LOCKS}, (id % 2147483648)::int)
   from (select id from (select value::bigint as id from jsonb_array_elements_text($1::jsonb)
     union select message_id from sms_message_parts
       where provider_id = any(array(select value from jsonb_array_elements_text($2::jsonb)))) ids order by id) keys`,
  }),
  // On PostgreSQL the claimed messages' outbox rows go in the same statement (claimQueued); SQLite has no DELETE in a WITH.
  claim: sqlText<[number, string], { id: number }>({
    sqlite: `update sms_messages set status = 'submitting', attempts = attempts + 1, updated_at = ?
   where id in (select value from jsonb_each(?)) and ${whereFrom("claim")} returning id`,
    postgres: `with claimed as (update sms_messages set status = 'submitting', attempts = attempts + 1, updated_at = $1
     where id = any(array(select value::bigint from jsonb_array_elements_text($2::jsonb))) and ${whereFrom("claim")} returning id),
   dropped as (delete from sms_outbox where message_id = any(array(select id from claimed)))
   select id from claimed`,
  }),
  markSubmitted: sqlText<[number, number, string], { id: number; segments: number; userId: number }>({
    sqlite: `update sms_messages set status = 'submitted', error = null, submitted_at = ?, updated_at = ?
   where id in (select value from jsonb_each(?)) and ${whereFrom("accept")}
   returning id, segments, user_id as userId`,
    postgres: `update sms_messages set status = 'submitted', error = null, submitted_at = $1, updated_at = $2
   where id = any(array(select value::bigint from jsonb_array_elements_text($3::jsonb))) and ${whereFrom("accept")}
   returning id, segments, user_id as "userId"`,
  }),
  markRequeued: sqlText<[string, number, number]>(
    `update sms_messages set status = 'queued', error = ?, updated_at = ? where id = ? and ${whereFrom("requeue")}`,
  ),
  markFailed: sqlText<
    [string, number, number, number],
    { userId: number; segments: number; credits: number; groupSendId: number | null; createdAt: number }
  >(
    `update sms_messages set status = 'failed', error = ?, updated_at = ?, done_at = ?
   where id = ? and ${whereFrom("fail")}
   returning user_id as userId, segments, credits, group_send_id as groupSendId, created_at as createdAt`,
  ),
  markInterrupted: sqlText<[string, number, number]>(
    `update sms_messages set status = 'unknown', error = ?, updated_at = ? where id = ? and ${whereFrom("interrupt")}`,
  ),
  // Receipts: the caller checked each move (canMove); `status = from` keeps it to the status it checked.
  moveMessages: sqlText<
    [number, string],
    { id: number; userId: number; groupSendId: number | null; status: MessageStatus; createdAt: number }
  >({
    sqlite: `update sms_messages set status = c.value ->> '$.status', error = c.value ->> '$.error', updated_at = ?,
     done_at = c.value ->> '$.doneAt'
   from jsonb_each(?) c
   where sms_messages.id = c.value ->> '$.id' and sms_messages.status = c.value ->> '$.from'
   returning id, user_id as userId, group_send_id as groupSendId, status, created_at as createdAt`,
    postgres: `update sms_messages set status = c.status, error = c.error, updated_at = $1, done_at = c."doneAt"
   from jsonb_to_recordset($2::jsonb) as c(id bigint, "from" text, status text, error text, "doneAt" bigint)
   where sms_messages.id = c.id and sms_messages.status = c."from"
   returning sms_messages.id, sms_messages.user_id as "userId", sms_messages.group_send_id as "groupSendId",
     sms_messages.status, sms_messages.created_at as "createdAt"`,
  }),
  stuck: sqlText<[number, number], { id: number; segments: number }>(
    "select id, segments from sms_messages where status = 'submitting' and updated_at < ? order by updated_at limit ?",
  ),
  queuedOfUser: sqlText<[number], { id: number }>(
    "select id from sms_messages where user_id = ? and status = 'queued'",
  ),
  // `where true`: SQLite's parser needs it between an INSERT's SELECT and its ON CONFLICT.
  insertParts: sqlText<[number, string]>({
    sqlite: `insert into sms_message_parts (message_id, part, provider_id, status, updated_at)
   select value ->> '$.messageId', value ->> '$.part', value ->> '$.providerId', 'submitted', ? from jsonb_each(?) where true
   on conflict do nothing`,
    postgres: pgInsertParts("$2"),
  }),
  // Each attempt an array [message id, upstream, bind, outcome, command status, provider ids, error].
  insertAttempts: sqlText<[number, string]>({
    sqlite: `insert into sms_submit_attempts (message_id, attempted_at, upstream, bind, outcome, command_status, provider_ids, error)
   select value ->> 0, ?, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6 from jsonb_each(?)`,
    postgres: pgInsertAttempts("$2"),
  }),
  // insertParts, insertAttempts and anyPending in one round trip (storeAcceptedParts); SQLite, where
  // a statement costs no round trip, runs the three and never prepares this.
  storeAnswers: sqlText<[number, string, string], { any: number }>({
    sqlite: "select null as any",
    postgres: `with parts as (${pgInsertParts("$2")}), attempts as (${pgInsertAttempts("$3")})
   select (exists (select 1 from sms_pending_receipts))::int as any`,
  }),
  countParts: sqlText<[number], { n: number }>("select count(*) as n from sms_message_parts where message_id = ?"),
  partsByProviderIds: sqlText<[string], PartRow>({
    sqlite: `select p.provider_id as providerId, p.message_id as messageId, p.part, p.status as partStatus,
     m.status as messageStatus, m.segments, p.updated_at as updatedAt
   from sms_message_parts p join sms_messages m on m.id = p.message_id
   where p.provider_id in (select value from jsonb_each(?)) order by p.message_id desc`,
    postgres: `select p.provider_id as "providerId", p.message_id as "messageId", p.part, p.status as "partStatus",
     m.status as "messageStatus", m.segments, p.updated_at as "updatedAt"
   from sms_message_parts p join sms_messages m on m.id = p.message_id
   where p.provider_id = any(array(select value from jsonb_array_elements_text($1::jsonb))) order by p.message_id desc`,
  }),
  // The caller checked each move (canMove); `status = from` keeps it to the status it checked.
  updateParts: sqlText<[number, string]>({
    sqlite: `update sms_message_parts set status = c.value ->> '$.status', error = c.value ->> '$.error', updated_at = ?
   from jsonb_each(?) c
   where sms_message_parts.message_id = c.value ->> '$.messageId' and sms_message_parts.part = c.value ->> '$.part'
     and sms_message_parts.status = c.value ->> '$.from'`,
    postgres: `update sms_message_parts set status = c.status, error = c.error, updated_at = $1
   from jsonb_to_recordset($2::jsonb) as c("messageId" bigint, part bigint, "from" text, status text, error text)
   where sms_message_parts.message_id = c."messageId" and sms_message_parts.part = c.part
     and sms_message_parts.status = c."from"`,
  }),
  // Each row an array [message id, due at].
  insertOutboxes: sqlText<[string]>({
    sqlite: "insert into sms_outbox (message_id, due_at) select value ->> 0, value ->> 1 from jsonb_each(?)",
    postgres: `insert into sms_outbox (message_id, due_at)
   select (value ->> 0)::bigint, (value ->> 1)::bigint from jsonb_array_elements($1::jsonb)`,
  }),
  upsertOutbox: sqlText<[number, number]>(
    "insert into sms_outbox (message_id, due_at) values (?, ?) on conflict (message_id) do update set due_at = excluded.due_at",
  ),
  deleteOutboxes: sqlText<[string]>({
    sqlite: "delete from sms_outbox where message_id in (select value from jsonb_each(?))",
    postgres: `delete from sms_outbox where message_id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  deleteOutbox: sqlText<[number]>("delete from sms_outbox where message_id = ?"),
  staleOutbox: sqlText<[number, number], { messageId: number; status: MessageStatus; requeues: number }>(
    `select o.message_id as messageId, m.status, o.requeues from sms_outbox o join sms_messages m on m.id = o.message_id
   where o.due_at < ? order by o.due_at limit ?`,
  ),
  // Only from the count the sweep read: two sweeps that read the same row count its requeue once.
  // Each row an object {messageId, requeues}.
  postponeOutboxes: sqlText<[number, string], { messageId: number }>({
    sqlite: `update sms_outbox set due_at = ?, requeues = sms_outbox.requeues + 1
   from jsonb_each(?) c
   where sms_outbox.message_id = c.value ->> '$.messageId' and sms_outbox.requeues = c.value ->> '$.requeues'
   returning message_id as messageId`,
    postgres: `update sms_outbox set due_at = $1, requeues = sms_outbox.requeues + 1
   from jsonb_to_recordset($2::jsonb) as c("messageId" bigint, requeues bigint)
   where sms_outbox.message_id = c."messageId" and sms_outbox.requeues = c.requeues
   returning sms_outbox.message_id as "messageId"`,
  }),
  moveOutboxBack: sqlText<[number]>("update sms_outbox set due_at = due_at - ?"),
  insertPending: sqlText<[number, string]>({
    sqlite: `insert into sms_pending_receipts (provider_id, status, error, received_at)
   select value ->> '$.providerId', value ->> '$.status', value ->> '$.error', ? from jsonb_each(?) order by key`,
    postgres: `insert into sms_pending_receipts (provider_id, status, error, received_at)
   select r.value ->> 'providerId', r.value ->> 'status', r.value ->> 'error', $1::bigint
   from jsonb_array_elements($2::jsonb) with ordinality r(value, key) order by r.key`,
  }),
  pendingReceipts: sqlText<[string], PendingReceipt>({
    sqlite: `select id, provider_id as providerId, status, error from sms_pending_receipts
   where provider_id in (select value from jsonb_each(?)) order by id`,
    postgres: `select id, provider_id as "providerId", status, error from sms_pending_receipts
   where provider_id = any(array(select value from jsonb_array_elements_text($1::jsonb))) order by id`,
  }),
  deletePending: sqlText<[string]>({
    sqlite: "delete from sms_pending_receipts where id in (select value from jsonb_each(?))",
    postgres: `delete from sms_pending_receipts where id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  anyPending: sqlText<[], { any: number }>({
    sqlite: "select exists (select 1 from sms_pending_receipts) as any",
    postgres: `select (exists (select 1 from sms_pending_receipts))::int as any`,
  }),
  purgePending: sqlText<[number]>("delete from sms_pending_receipts where received_at < ?"),
});

/**
 * Inserts the messages of one user, or finds for each the earlier one with the same schedule
 * occurrence, API reference or group member (in the database, or before it in `rows`); a result per
 * row, in order. Two statements for any number of rows: the insert, and the look-up when some were
 * duplicates.
 */
export async function insertOrFindMessages(
  userId: number,
  rows: MessageToStore[],
  now: number,
): Promise<StoredMessage[]> {
  if (rows.length === 0) return [];
  const keys = rows.map((row) => dedupeKeyOf(row.message));
  // The columns in insertMessages' order, from to_phone on.
  const json = rows.map(({ message, count, initial }, i) => {
    const { scheduleId, occurrenceAt, apiRef, groupSendId, contactId } = keys[i];
    return [
      message.to,
      message.from ?? null,
      // A lone surrogate, carried by JSON as an escape SQLite decodes to three bytes, is stored as one
      // replacement character, as a bound parameter stores it.
      message.body.toWellFormed(),
      count.encoding,
      count.segments,
      initial.credits,
      initial.status,
      initial.error,
      message.source ?? "web",
      scheduleId,
      occurrenceAt,
      apiRef,
      groupSendId,
      contactId,
      message.deferredUntil ?? null,
      isFinal(initial.status) ? now : null,
      message.apiKeyId ?? null,
    ];
  });
  const inserted = (await queries.insertMessages.all(userId, now, now, JSON.stringify(json))).sort(
    (a, b) => a.id - b.id,
  );
  // In id order the inserted rows are the rows in order without the skipped ones, and only a row
  // with a key can be skipped: a row was inserted when the next inserted row has its key.
  let next = 0;
  const stored = keys.map((key): StoredMessage | undefined => {
    const row = inserted[next];
    if (row !== undefined && sameDedupeKey(key, row)) {
      next += 1;
      return { id: row.id, duplicate: false };
    }
    if (!hasDedupeKey(key)) throw new Error("A message without a unique key was refused by a constraint");
    return undefined;
  });
  // The dashboards' counts of the rows inserted (a skipped duplicate counts nothing), at their creation.
  const counted: RollupChange = { userId, at: now };
  stored.forEach((result, i) => {
    const outcome = rollupOutcome(rows[i].initial.status);
    if (result !== undefined) counted[outcome] = (counted[outcome] ?? 0) + 1;
  });
  await addToRollup([counted]);
  const skipped = stored.flatMap((result, i) => (result === undefined ? [i] : []));
  const earlier = new Map<number, ExistingMessage>();
  if (skipped.length > 0) {
    for (const { input, ...found } of await queries.duplicates.all(
      JSON.stringify(skipped.map((i) => keys[i])),
      userId,
    )) {
      if (!earlier.has(skipped[input])) earlier.set(skipped[input], found);
    }
  }
  return stored.map((result, i) => {
    if (result !== undefined) return result;
    const found = earlier.get(i);
    if (!found)
      throw new Error("A message was refused by a constraint other than its schedule, API reference or group send");
    return { ...found, duplicate: true };
  });
}

/** The messages among `ids` still queued, to send. */
export async function selectQueued(ids: number[]): Promise<SendRow[]> {
  return await queries.toSend.all(JSON.stringify(ids));
}

/** The account's messages still queued (none of them has reached the carrier). */
export async function queuedMessageIdsOf(userId: number): Promise<number[]> {
  return (await queries.queuedOfUser.all(userId)).map((row) => row.id);
}

/**
 * PostgreSQL: locks, until the transaction ends, the provider ids and then the messages a state change
 * touches (its answers' messages, and those the provider ids' parts belong to), so transactions that
 * touch the same messages or parts run one after another, each seeing what the one before committed,
 * while the others run beside them (decision 143). Then a receipt and its part's answer, or two
 * receipts of one message, never both read the rows the other is writing. Only in a transaction that
 * took the turn shared: one holding it alone, or a SERIALIZABLE one (tests), or SQLite's, needs none.
 */
export async function lockMessageStates(messageIds: number[], providerIds: string[]): Promise<void> {
  if (!inSharedTurn()) return;
  const providers = JSON.stringify(providerIds);
  if (providerIds.length > 0) await queries.lockProviderIds.run(providers);
  await queries.lockMessageIds.run(JSON.stringify(messageIds), providers);
}

/**
 * queued -> submitting (counting an attempt) for the ids still queued, and their outbox rows deleted;
 * returns those. A compare-and-set, right at READ COMMITTED without the message-state turn (decision
 * 131): on PostgreSQL one statement (the outbox rows deleted in it) in a transaction whose COMMIT,
 * cut off by a restart after it was sent, is looked up (decision 146): a claim that committed unseen
 * would leave its messages submitting, never sent, to end unknown. On SQLite two statements.
 */
export async function claimQueued(ids: number[], now: number): Promise<number[]> {
  const claim = async () => {
    const claimed = (await queries.claim.all(now, JSON.stringify(ids))).map((row) => row.id);
    if (!usesPostgres()) await deleteOutboxRows(claimed);
    return claimed;
  };
  // Inside a running transaction (the worker's state changes, decision 142) it is part of that one.
  if (runningTransaction() !== null) return await claim();
  return usesPostgres()
    ? await withTx(claim, { readCommitted: true, lookUpCutOffCommit: true })
    : await withTxWithoutStalling(claim);
}

/** submitting -> submitted for the ids still submitting; returns those, with their segments and owner. */
export async function markSubmitted(
  ids: number[],
  now: number,
): Promise<{ id: number; segments: number; userId: number }[]> {
  return await queries.markSubmitted.all(now, now, JSON.stringify(ids));
}

/** queued or submitting -> queued, with why it waits. */
export async function markRequeued(messageId: number, error: string, now: number): Promise<void> {
  await queries.markRequeued.run(error, now, messageId);
}

/** queued or submitting -> failed; what to refund, or undefined when it had moved on. */
export async function markFailed(messageId: number, reason: string, now: number) {
  const failed = await queries.markFailed.get(reason, now, now, messageId);
  // From queued or submitting: pending.
  if (failed) await addToRollup([{ userId: failed.userId, at: failed.createdAt, pending: -1, failed: 1 }]);
  return failed;
}

/** submitting -> unknown; false when it had moved on. */
export async function markInterrupted(messageId: number, reason: string, now: number): Promise<boolean> {
  return (await queries.markInterrupted.run(reason, now, messageId)).changes === 1;
}

/** Moves each message from `from` (as read) to its status, with `done_at` when final; those moved, with owner and group send. */
export async function moveMessages(moves: MessageMove[], now: number) {
  const rows = moves.map((move) => ({ ...move, doneAt: isFinal(move.status) ? now : null }));
  const moved = await queries.moveMessages.all(now, JSON.stringify(rows));
  const from = new Map(moves.map((move) => [move.id, move.from]));
  await addToRollup(
    moved.flatMap(({ id, userId, status, createdAt }) => {
      const was = rollupOutcome(from.get(id)!);
      const is = rollupOutcome(status);
      return was === is ? [] : [{ userId, at: createdAt, [was]: -1, [is]: 1 }];
    }),
  );
  return moved;
}

/** Messages in `submitting` since before `before`, oldest first. */
export async function selectStuckSubmitting(before: number, limit: number) {
  return await queries.stuck.all(before, limit);
}

/** The parts of `ids` the SMSC has accepted, with what their receipts said, in message and part order. */
export async function selectAcceptedParts(
  ids: number[],
): Promise<({ messageId: number; part: number } & StoredStatus)[]> {
  return await queries.partsOf.all(JSON.stringify(ids));
}

/**
 * Stores the parts the SMSC accepted, with their provider ids so receipts find their message (a part
 * kept from before stays), and the tries that reached it (the journey reads them); whether any
 * receipt waits for its part at all (almost never), asked only when there are parts. On PostgreSQL,
 * where each statement is a round trip, all three are one (two data-modifying CTEs).
 */
export async function storeAcceptedParts(parts: AcceptedPart[], tries: SubmitAttempt[], now: number): Promise<boolean> {
  if (parts.length === 0 && tries.length === 0) return false;
  if (usesPostgres()) {
    const { any } = (await queries.storeAnswers.get(now, JSON.stringify(parts), attemptsJson(tries)))!;
    return parts.length > 0 && any === 1;
  }
  if (parts.length > 0) await queries.insertParts.run(now, JSON.stringify(parts));
  if (tries.length > 0) await insertSubmitAttempts(tries, now);
  return parts.length > 0 && (await anyPendingReceipts());
}

/** One try at the SMSC and its answer (SubmitAttemptOutcome: accepted, temporary or permanent). */
export type SubmitAttempt = {
  messageId: number;
  upstream: string | null;
  bind: string | null;
  outcome: SubmitAttemptOutcome;
  commandStatus: number | null;
  /** The SMSC message ids of the parts this try got accepted. */
  providerIds: string[];
  error: string | null;
};

/** The tries of a slice and their answers, in one INSERT (the message's journey reads them). */
export async function insertSubmitAttempts(attempts: SubmitAttempt[], now: number): Promise<void> {
  if (attempts.length > 0) await queries.insertAttempts.run(now, attemptsJson(attempts));
}

/** Each attempt an array, as insertAttempts reads them. */
const attemptsJson = (attempts: SubmitAttempt[]) =>
  JSON.stringify(
    attempts.map((a) => [
      a.messageId,
      a.upstream,
      a.bind,
      a.outcome,
      a.commandStatus,
      a.providerIds.length > 0 ? a.providerIds.join(" ") : null,
      a.error,
    ]),
  );

/** How many parts of a message the SMSC has accepted (provider ids recorded). */
export async function acceptedPartCount(messageId: number): Promise<number> {
  return (await queries.countParts.get(messageId))?.n ?? 0;
}

/** The parts these provider ids name, with their messages' status; newest message first (should the SMSC reuse ids). */
export async function selectPartsByProviderIds(providerIds: string[]): Promise<PartRow[]> {
  return await queries.partsByProviderIds.all(JSON.stringify(providerIds));
}

export async function updateParts(moves: PartMove[], now: number): Promise<void> {
  await queries.updateParts.run(now, JSON.stringify(moves));
}

/** The messages' outbox rows, in one statement. */
export async function insertOutboxRows(rows: { id: number; dueAt: number }[]): Promise<void> {
  if (rows.length > 0) await queries.insertOutboxes.run(JSON.stringify(rows.map(({ id, dueAt }) => [id, dueAt])));
}

/** The message's outbox row, due at `dueAt` (a retry's backoff moves it on). */
export async function scheduleOutbox(messageId: number, dueAt: number): Promise<void> {
  await queries.upsertOutbox.run(messageId, dueAt);
}

export async function deleteOutbox(messageId: number): Promise<void> {
  await queries.deleteOutbox.run(messageId);
}

export async function deleteOutboxRows(messageIds: number[]): Promise<void> {
  await queries.deleteOutboxes.run(JSON.stringify(messageIds));
}

/** Outbox rows due before `before`, oldest first, with their message's status and how often they were added again. */
export async function selectStaleOutboxRows(before: number, limit: number) {
  return await queries.staleOutbox.all(before, limit);
}

/** Moves every outbox row `ms` earlier (a restore: none of their jobs is in the emptied Redis). */
export async function moveOutboxBack(ms: number): Promise<number> {
  return (await queries.moveOutboxBack.run(ms)).changes;
}

/**
 * Looks at these outbox rows again after another grace period, counting the requeue, one statement
 * for all; the ids of those postponed, without the rows gone or no longer with the `requeues` their
 * sweep read (another sweep counted them first).
 */
export async function postponeOutboxRows(
  rows: { messageId: number; requeues: number }[],
  now: number,
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const json = JSON.stringify(rows.map(({ messageId, requeues }) => ({ messageId, requeues })));
  return new Set((await queries.postponeOutboxes.all(now, json)).map((row) => row.messageId));
}

/** Keeps the receipts whose submit_sm_resp is not recorded yet, in their order. */
export async function insertPendingReceipts(receipts: PartReceipt[], now: number): Promise<void> {
  await queries.insertPending.run(now, JSON.stringify(receipts));
}

/** The receipts kept for these provider ids, by provider id (oldest first). */
export async function pendingReceiptsFor(providerIds: string[]): Promise<Map<string, PendingReceipt[]>> {
  const byProvider = new Map<string, PendingReceipt[]>();
  for (const receipt of await queries.pendingReceipts.all(JSON.stringify(providerIds))) {
    const kept = byProvider.get(receipt.providerId);
    if (kept) kept.push(receipt);
    else byProvider.set(receipt.providerId, [receipt]);
  }
  return byProvider;
}

export async function deletePendingReceipts(ids: number[]): Promise<void> {
  await queries.deletePending.run(JSON.stringify(ids));
}

/** Whether receipts wait for a provider id; almost never, so acks skip the look-up when none do. */
async function anyPendingReceipts(): Promise<boolean> {
  return (await queries.anyPending.get())!.any === 1;
}

/** Drops receipts kept since before `before`; how many. */
export async function purgePendingReceipts(before: number): Promise<number> {
  return (await queries.purgePending.run(before)).changes;
}
