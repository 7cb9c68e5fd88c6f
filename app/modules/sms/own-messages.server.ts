// One account's messages as stored, read by id, by API reference or a keyset page at a time: the
// owner's id is in every WHERE clause, so another account's message is simply not found.
import { sqlText, statementFor, statements } from "#app/db/statements.server.ts";
import type { MessageResourceRow } from "#app/modules/sms/message-resource.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";

/** A stored message, as the API and the webhooks present it. */
export type OwnMessageRow = MessageResourceRow;

// Of `sms_messages m`: a join's other table may have columns of the same names (jsonb_each has an id).
const COLUMNS = `m.id, m.to_phone as "to", m.from_address as "from", m.body, m.encoding, m.segments, m.credits,
  m.status, m.error as statusDetail, m.group_send_id as groupSendId, m.created_at as createdAt,
  m.submitted_at as submittedAt, m.done_at as doneAt, m.updated_at as updatedAt`;
/** COLUMNS as PostgreSQL keeps their names' case: quoted. */
const PG_COLUMNS = COLUMNS.replace(/ as (\w+)/g, ' as "$1"');

const queries = statements({
  one: sqlText<[number, number], OwnMessageRow>(`select ${COLUMNS} from sms_messages m where id = ? and user_id = ?`),
  many: sqlText<[string], OwnMessageRow>({
    sqlite: `select ${COLUMNS} from jsonb_each(?) j join sms_messages m on m.id = j.value ->> '$.id' and m.user_id = j.value ->> '$.userId'`,
    postgres: `select ${PG_COLUMNS} from jsonb_array_elements($1::jsonb) j join sms_messages m
     on m.id = (j.value ->> 'id')::bigint and m.user_id = (j.value ->> 'userId')::bigint`,
  }),
  occurrence: sqlText<[number, number, number], OwnMessageRow>(
    `select ${COLUMNS} from sms_messages m where schedule_id = ? and occurrence_at = ? and user_id = ?`,
  ),
  idByApiRef: sqlText<[number, string], { id: number }>(
    "select id from sms_messages where user_id = ? and api_ref = ?",
  ),
  scheduleIdByApiRef: sqlText<[number, string], { id: number }>(
    "select id from schedules where user_id = ? and api_ref = ?",
  ),
  latestId: sqlText<[number], { id: number }>("select max(id) as id from sms_messages where user_id = ?"),
});

/** The id of the user's newest message. */
export async function latestMessageId(userId: number): Promise<number | null> {
  return (await queries.latestId.get(userId))?.id ?? null;
}

export async function findOwnMessage(userId: number, id: number): Promise<OwnMessageRow | undefined> {
  return await queries.one.get(id, userId);
}

/** Messages by id, each looked for among its owner's, in one query: found ones by id. */
export async function findOwnMessages(messages: { userId: number; id: number }[]): Promise<Map<number, OwnMessageRow>> {
  return new Map((await queries.many.all(JSON.stringify(messages))).map((row) => [row.id, row]));
}

/** The message a schedule's occurrence became, once it ran. */
export async function findOccurrenceMessage(
  userId: number,
  scheduleId: number,
  at: number,
): Promise<OwnMessageRow | undefined> {
  return await queries.occurrence.get(scheduleId, at, userId);
}

export async function messageHasApiRef(userId: number, apiRef: string): Promise<boolean> {
  return (await queries.idByApiRef.get(userId, apiRef)) !== undefined;
}

export async function scheduleHasApiRef(userId: number, apiRef: string): Promise<boolean> {
  return (await queries.scheduleIdByApiRef.get(userId, apiRef)) !== undefined;
}

export type MessageFilters = {
  status?: MessageStatus;
  to?: string;
  /** A sender address; null: the gateway's shared sender. */
  from?: string | null;
  groupSendId?: number;
  /** Epoch ms, inclusive. */
  createdAfter?: number;
  /** Epoch ms, exclusive. */
  createdBefore?: number;
};

/**
 * Newest first, ids below `before`, at most `limit`, matching every filter given. Keyset paging on
 * (user_id, id); the status, to and group send filters have indexes of their own (see sms.ts).
 */
export async function ownMessagesBefore(
  userId: number,
  options: MessageFilters & { before: number; limit: number },
): Promise<OwnMessageRow[]> {
  const where = ["user_id = ?"];
  const values: unknown[] = [userId];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    values.push(value);
  };
  if (options.status !== undefined) add("status = ?", options.status);
  if (options.to !== undefined) add("to_phone = ?", options.to);
  if (options.from === null) where.push("from_address is null");
  else if (options.from !== undefined) add("from_address = ?", options.from);
  if (options.groupSendId !== undefined) add("group_send_id = ?", options.groupSendId);
  if (options.createdAfter !== undefined) add("created_at >= ?", options.createdAfter);
  if (options.createdBefore !== undefined) add("created_at < ?", options.createdBefore);
  add("id < ?", options.before);
  // Each combination of filters is one statement, prepared on first use.
  const source = `select ${COLUMNS} from sms_messages m where ${where.join(" and ")} order by id desc limit ?`;
  return await statementFor<unknown[], OwnMessageRow>(source).all(...values, options.limit);
}
