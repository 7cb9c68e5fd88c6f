// One account's messages as stored, read by id, by API reference or a keyset page at a time: the
// owner's id is in every WHERE clause, so another account's message is simply not found.
import { statement } from "#app/db/statements.server.ts";
import type { MessageStatus } from "#app/modules/sms/message-status.ts";

export type OwnMessageRow = {
  id: number;
  to: string;
  body: string;
  encoding: "GSM-7" | "UCS-2";
  segments: number;
  credits: number;
  status: MessageStatus;
  statusDetail: string | null;
  createdAt: number;
};

const COLUMNS = `id, to_phone as "to", body, encoding, segments, credits, status, error as statusDetail, created_at as createdAt`;

const selectOne = statement<[number, number], OwnMessageRow>(
  `select ${COLUMNS} from sms_messages where id = ? and user_id = ?`,
);
const selectOccurrence = statement<[number, number, number], OwnMessageRow>(
  `select ${COLUMNS} from sms_messages where schedule_id = ? and occurrence_at = ? and user_id = ?`,
);
const selectByApiRef = statement<[number, string], { id: number }>(
  "select id from sms_messages where user_id = ? and api_ref = ?",
);
const selectScheduleByApiRef = statement<[number, string], { id: number }>(
  "select id from schedules where user_id = ? and api_ref = ?",
);
// Keyset pages on (user_id, id) or (user_id, status, id): no page walks over the ones before it.
const selectPage = statement<[number, number, number], OwnMessageRow>(
  `select ${COLUMNS} from sms_messages where user_id = ? and id < ? order by id desc limit ?`,
);
const selectPageWithStatus = statement<[number, string, number, number], OwnMessageRow>(
  `select ${COLUMNS} from sms_messages where user_id = ? and status = ? and id < ? order by id desc limit ?`,
);
const selectLatestId = statement<[number], { id: number }>("select max(id) as id from sms_messages where user_id = ?");

/** The id of the user's newest message. */
export function latestMessageId(userId: number): number | null {
  return selectLatestId().get(userId)?.id ?? null;
}

export function findOwnMessage(userId: number, id: number): OwnMessageRow | undefined {
  return selectOne().get(id, userId);
}

/** The message a schedule's occurrence became, once it ran. */
export function findOccurrenceMessage(userId: number, scheduleId: number, at: number): OwnMessageRow | undefined {
  return selectOccurrence().get(scheduleId, at, userId);
}

export function messageHasApiRef(userId: number, apiRef: string): boolean {
  return selectByApiRef().get(userId, apiRef) !== undefined;
}

export function scheduleHasApiRef(userId: number, apiRef: string): boolean {
  return selectScheduleByApiRef().get(userId, apiRef) !== undefined;
}

/** Newest first, ids below `before`, at most `limit`. */
export function ownMessagesBefore(
  userId: number,
  options: { status?: MessageStatus; before: number; limit: number },
): OwnMessageRow[] {
  return options.status
    ? selectPageWithStatus().all(userId, options.status, options.before, options.limit)
    : selectPage().all(userId, options.before, options.limit);
}
