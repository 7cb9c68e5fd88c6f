// Contacts, groups and group sends as the REST API shows them, on the contacts module's own domain
// functions (the screens' rules; the owner's id in every WHERE clause).
import { z } from "zod";
import {
  type Contact,
  createContact,
  deleteContact,
  getContact,
  listContactsAfter,
  type NamePosition,
  updateContact,
} from "#app/modules/contacts/contacts.server.ts";
import { deleteGroup } from "#app/modules/scheduling/cancel.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { describeGroupSend, type GroupSendReport } from "#app/modules/contacts/group-send.ts";
import {
  getGroupSendReport,
  latestGroupSendId,
  listGroupSendReportsBefore,
  startGroupSend,
} from "#app/modules/contacts/group-send.server.ts";
import {
  addGroupMembers,
  getGroup,
  type Group,
  latestGroupId,
  listGroupsAfter,
  removeGroupMember,
  updateGroup,
} from "#app/modules/contacts/groups.server.ts";
import { decodeCursor, encodeCursor } from "#app/api/cursor.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import { idempotencyConflict } from "#app/api/messages.server.ts";
import type { ApiContact, ApiGroupSend } from "#app/api/schemas.ts";

const GroupSendPosition = z.int().positive().max(Number.MAX_SAFE_INTEGER);
const Position = z.tuple([z.string().max(1_000), z.int().positive().max(Number.MAX_SAFE_INTEGER)]);

function readPosition(kind: string, cursor: string | undefined): NamePosition | null {
  if (cursor === undefined) return null;
  const [name, id] = decodeCursor(kind, cursor, Position);
  return { name, id };
}

/** One row more than asked says whether there is a next page. */
function page<T extends { id: number; name: string }, U>(
  kind: string,
  rows: T[],
  limit: number,
  present: (row: T) => U,
) {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(present),
    nextCursor: rows.length > limit ? encodeCursor(kind, [last.name, last.id]) : null,
  };
}

function presentContact({ status, ...contact }: Contact): ApiContact {
  return { ...contact, active: status };
}

const CONTACTS = "c1";
const GROUPS = "g1";

export function listApiContacts(userId: number, query: { group?: number; cursor?: string; limit: number }) {
  const after = readPosition(CONTACTS, query.cursor);
  const rows = listContactsAfter(userId, { after, limit: query.limit + 1, groupId: query.group });
  return page(CONTACTS, rows, query.limit, presentContact);
}

export function createApiContact(
  userId: number,
  input: { name: string; phone: string; email: string; timeZone?: string | null; groupIds: number[] },
): ApiContact {
  try {
    return presentContact(createContact(userId, input));
  } catch (error) {
    // The only id in the body: one of them is not one of the user's groups.
    if (error instanceof NotFoundError)
      throw new ApiError("not_found", "No group with one of these ids in your account", { field: "groupIds" });
    throw error;
  }
}

export function getApiContact(userId: number, id: number): ApiContact {
  const contact = getContact(userId, id);
  if (!contact) throw notFoundError("contact");
  return presentContact(contact);
}

/** Changes only the fields given (the Edit Contact screen's rules); `groupIds` replaces the groups. */
export function updateApiContact(
  userId: number,
  id: number,
  changes: {
    name?: string;
    phone?: string;
    email?: string;
    timeZone?: string | null;
    active?: boolean;
    groupIds?: number[];
  },
): ApiContact {
  const current = getContact(userId, id);
  if (!current) throw notFoundError("contact");
  const { active, ...fields } = changes;
  const input = {
    name: current.name,
    phone: current.phone,
    email: current.email,
    status: active ?? current.status,
    groupIds: current.groups.map((group) => group.id),
    ...fields,
  };
  try {
    const updated = updateContact(userId, id, input);
    if (!updated) throw notFoundError("contact");
    return presentContact(updated);
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new ApiError("not_found", "No group with one of these ids in your account", { field: "groupIds" });
    throw error;
  }
}

/** Deletes a contact (its messages stay in the history); the answer is the contact as it was. */
export function deleteApiContact(userId: number, id: number): ApiContact {
  const contact = getApiContact(userId, id);
  if (!deleteContact(userId, id)) throw notFoundError("contact");
  return contact;
}

export function getApiGroup(userId: number, id: number): Group {
  const group = getGroup(userId, id);
  if (!group) throw notFoundError("group");
  return group;
}

export function updateApiGroup(userId: number, id: number, changes: { name?: string; description?: string }): Group {
  const updated = updateGroup(userId, id, { ...getApiGroup(userId, id), ...changes });
  if (!updated) throw notFoundError("group");
  return updated;
}

/** Deletes a group as the Groups screen does: its schedules are cancelled, its contacts stay. */
export async function deleteApiGroup(userId: number, id: number): Promise<Group> {
  const group = getApiGroup(userId, id);
  if (!(await deleteGroup(userId, id))) throw notFoundError("group");
  return group;
}

export function addApiGroupMembers(userId: number, groupId: number, contactIds: number[]): Group {
  let group: Group | null;
  try {
    group = addGroupMembers(userId, groupId, contactIds);
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new ApiError("not_found", "No contact with one of these ids in your account", { field: "contactIds" });
    throw error;
  }
  if (!group) throw notFoundError("group");
  return group;
}

export function removeApiGroupMember(userId: number, groupId: number, contactId: number): Group {
  let group: Group | null;
  try {
    group = removeGroupMember(userId, groupId, contactId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new ApiError("not_found", "No such contact in this group");
    throw error;
  }
  if (!group) throw notFoundError("group");
  return group;
}

export function listApiGroups(userId: number, query: { cursor?: string; limit: number }) {
  const rows = listGroupsAfter(userId, { after: readPosition(GROUPS, query.cursor), limit: query.limit + 1 });
  return page(GROUPS, rows, query.limit, (group: Group) => group);
}

/** The user's newest group and group send, for the documentation's examples. */
export function latestGroupIds(userId: number): { groupId: number | null; groupSendId: number | null } {
  return { groupId: latestGroupId(userId), groupSendId: latestGroupSendId(userId) };
}

export const GROUP_SENDS_PATH = "/api/v1/group-sends";

function presentGroupSend(report: GroupSendReport, origin: string): ApiGroupSend {
  // What quiet hours hold is not in the API yet (the Groups screen shows it).
  const { deferred: _deferred, ...shown } = report;
  return { ...shown, summary: describeGroupSend(report), statusUrl: `${origin}${GROUP_SENDS_PATH}/${report.id}` };
}

// Apart from the Groups screen's one-time form keys, which share the column.
const requestKeyOf = (idempotencyKey: string) => `api:${idempotencyKey}`;

/**
 * Starts a group send as the Groups screen's Send panel does (startGroupSend: the whole cost up
 * front, empty or all-opted-out groups refused). An Idempotency-Key is the send's request key: a
 * repeat answers the same send (its progress now) and sends nothing new; with another group or
 * body it is a 409.
 */
export async function sendApiGroupMessage(
  userId: number,
  groupId: number,
  body: string,
  idempotencyKey: string | undefined,
  origin: string,
  from?: string,
): Promise<{ groupSend: ApiGroupSend; replayed: boolean }> {
  const requestKey = idempotencyKey === undefined ? undefined : requestKeyOf(idempotencyKey);
  const { duplicate, ...report } = await startGroupSend(userId, groupId, body, { requestKey, from });
  if (duplicate && (report.groupId !== groupId || report.body !== body)) throw idempotencyConflict();
  return { groupSend: presentGroupSend(report, origin), replayed: duplicate };
}

const GROUP_SENDS = "s1";

export function listApiGroupSends(userId: number, query: { cursor?: string; limit: number }, origin: string) {
  const before =
    query.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(GROUP_SENDS, query.cursor, GroupSendPosition);
  const rows = listGroupSendReportsBefore(userId, { before, limit: query.limit + 1 });
  const shown = rows.slice(0, query.limit);
  return {
    data: shown.map((report) => presentGroupSend(report, origin)),
    nextCursor: rows.length > query.limit ? encodeCursor(GROUP_SENDS, shown[shown.length - 1].id) : null,
  };
}

export function getApiGroupSend(userId: number, id: number, origin: string): ApiGroupSend | null {
  const report = getGroupSendReport(userId, id);
  return report && presentGroupSend(report, origin);
}
