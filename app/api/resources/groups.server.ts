// Groups and their members on the REST API (scope contacts:manage), on the contacts module's own
// domain functions (the Groups screen's rules; the owner's id in every WHERE clause).
import { z } from "zod";
import { latestContactId } from "#app/modules/contacts/contacts.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { DESCRIPTION_MAX, groupNameField } from "#app/modules/contacts/schemas.ts";
import {
  addGroupMembers,
  createGroup,
  getGroup,
  type Group,
  listGroupsAfter,
  removeGroupMember,
  updateGroup,
} from "#app/modules/contacts/groups.server.ts";
import { deleteGroup } from "#app/modules/scheduling/cancel.server.ts";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { namePage, readNamePosition } from "#app/api/cursor.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import { GROUP_SEND_ROUTES, latestGroupIds } from "#app/api/resources/group-sends.server.ts";
import { cursorField, cursorPage, GroupIdParams, idField, limitField, positiveId } from "#app/api/schemas.ts";

const GroupMemberParams = z.strictObject({
  id: positiveId().meta({ description: "One of your groups' id." }),
  contactId: positiveId().meta({ description: "The id of a contact in that group." }),
});
const CreateGroupRequest = z.strictObject({
  name: groupNameField.meta({ description: "Unique among your groups, in any letter case.", examples: ["Customers"] }),
  description: z
    .string({ error: "Group description is required" })
    .trim()
    .min(1, "Group description is required")
    .max(DESCRIPTION_MAX, `Group description must be ${DESCRIPTION_MAX} characters or fewer`)
    .meta({ examples: ["Everyone who bought this year"] }),
});

const UpdateGroupRequest = CreateGroupRequest.partial().meta({ description: "Only the fields given change." });

const ListGroupsQuery = z.strictObject({ cursor: cursorField("groups"), limit: limitField("Groups") });

export const GroupSchema = z.object({
  id: idField(7),
  name: z.string().meta({ examples: ["Customers"] }),
  description: z.string(),
  members: z.int().nonnegative().meta({ description: "Contacts in the group, active or not." }),
});

export const GroupListSchema = cursorPage(GroupSchema, "Name A to Z.");

const GROUPS = "g1";

async function getApiGroup(userId: number, id: number): Promise<Group> {
  const group = await getGroup(userId, id);
  if (!group) throw notFoundError("group");
  return group;
}

async function updateApiGroup(
  userId: number,
  id: number,
  changes: { name?: string; description?: string },
): Promise<Group> {
  const updated = await updateGroup(userId, id, { ...(await getApiGroup(userId, id)), ...changes });
  if (!updated) throw notFoundError("group");
  return updated;
}

/** Deletes a group as the Groups screen does: its schedules are cancelled, its contacts stay. */
async function deleteApiGroup(userId: number, id: number): Promise<Group> {
  const group = await getApiGroup(userId, id);
  if (!(await deleteGroup(userId, id))) throw notFoundError("group");
  return group;
}

async function addApiGroupMembers(userId: number, groupId: number, contactIds: number[]): Promise<Group> {
  let group: Group | null;
  try {
    group = await addGroupMembers(userId, groupId, contactIds);
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new ApiError("not_found", "No contact with one of these ids in your account", { field: "contactIds" });
    throw error;
  }
  if (!group) throw notFoundError("group");
  return group;
}

async function removeApiGroupMember(userId: number, groupId: number, contactId: number): Promise<Group> {
  let group: Group | null;
  try {
    group = await removeGroupMember(userId, groupId, contactId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new ApiError("not_found", "No such contact in this group");
    throw error;
  }
  if (!group) throw notFoundError("group");
  return group;
}

async function listApiGroups(userId: number, query: { cursor?: string; limit: number }) {
  const rows = await listGroupsAfter(userId, { after: readNamePosition(GROUPS, query.cursor), limit: query.limit + 1 });
  return namePage(GROUPS, rows, query.limit, (group: Group) => group);
}

/** The reader's newest group and contact, for the membership examples. */
const readerMember = async (userId: number) => ({
  id: (await latestGroupIds(userId)).groupId,
  contactId: await latestContactId(userId),
});

export const GROUP_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: `${API_BASE}/groups`,
    operationId: "listGroups",
    tag: "Groups",
    summary: "List your groups",
    description: "Name A to Z, a page at a time: pass `nextCursor` back as `cursor` until it is null.",
    auth: true,
    scope: "contacts:manage",
    query: ListGroupsQuery,
    success: { status: 200, description: "One page of groups.", schema: GroupListSchema },
    example: { query: { limit: 10 } },
    handle: async ({ userId, query }) => ({ body: await listApiGroups(userId, query) }),
  }),
  defineRoute({
    method: "POST",
    path: `${API_BASE}/groups`,
    operationId: "createGroup",
    tag: "Groups",
    summary: "Create a group",
    description: "The same rules as the Create Group screen: a name (unique among your groups) and a description.",
    auth: true,
    scope: "contacts:manage",
    body: CreateGroupRequest,
    success: { status: 201, description: "Created.", schema: GroupSchema },
    errors: ["quota_exceeded"],
    example: { body: { name: "Customers", description: "Everyone who bought this year" } },
    handle: async ({ userId, body }) => ({ status: 201, body: await createGroup(userId, body) }),
  }),
  ...GROUP_SEND_ROUTES,
  defineRoute({
    method: "PUT",
    path: `${API_BASE}/groups/{id}/members/{contactId}`,
    operationId: "addGroupMember",
    tag: "Groups",
    summary: "Put a contact in a group",
    description:
      "Adding a contact that is already a member changes nothing (200 again). Several at once: PATCH /contacts/{id} with `groupIds`, or POST /contacts with them.",
    auth: true,
    scope: "contacts:manage",
    params: GroupMemberParams,
    success: { status: 200, description: "The group with its member count.", schema: GroupSchema },
    errors: ["not_found"],
    example: { params: { id: 7, contactId: 12 }, readerParams: (userId) => readerMember(userId) },
    handle: async ({ userId, params }) => ({ body: await addApiGroupMembers(userId, params.id, [params.contactId]) }),
  }),
  defineRoute({
    method: "DELETE",
    path: `${API_BASE}/groups/{id}/members/{contactId}`,
    operationId: "removeGroupMember",
    tag: "Groups",
    summary: "Take a contact out of a group",
    description: "The contact itself stays.",
    auth: true,
    scope: "contacts:manage",
    params: GroupMemberParams,
    success: { status: 200, description: "The group with its new member count.", schema: GroupSchema },
    errors: ["not_found"],
    example: { params: { id: 7, contactId: 12 }, readerParams: (userId) => readerMember(userId) },
    handle: async ({ userId, params }) => ({ body: await removeApiGroupMember(userId, params.id, params.contactId) }),
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/groups/{id}`,
    operationId: "getGroup",
    tag: "Groups",
    summary: "Get one group",
    auth: true,
    scope: "contacts:manage",
    params: GroupIdParams,
    success: { status: 200, description: "The group.", schema: GroupSchema },
    errors: ["not_found"],
    example: { params: { id: 7 }, readerParams: async (userId) => ({ id: (await latestGroupIds(userId)).groupId }) },
    handle: async ({ userId, params }) => ({ body: await getApiGroup(userId, params.id) }),
  }),
  defineRoute({
    method: "PATCH",
    path: `${API_BASE}/groups/{id}`,
    operationId: "updateGroup",
    tag: "Groups",
    summary: "Rename a group or change its description",
    description: "The Edit Group screen's rules; only the fields given change.",
    auth: true,
    scope: "contacts:manage",
    params: GroupIdParams,
    body: UpdateGroupRequest,
    success: { status: 200, description: "The group as it is now.", schema: GroupSchema },
    errors: ["not_found"],
    example: {
      params: { id: 7 },
      body: { description: "Everyone who bought in 2026" },
      readerParams: async (userId) => ({ id: (await latestGroupIds(userId)).groupId }),
    },
    handle: async ({ userId, params, body }) => ({ body: await updateApiGroup(userId, params.id, body) }),
  }),
  defineRoute({
    method: "DELETE",
    path: `${API_BASE}/groups/{id}`,
    operationId: "deleteGroup",
    tag: "Groups",
    summary: "Delete a group",
    description:
      "As on the Groups screen: its contacts stay, and its scheduled messages are cancelled. Its past group sends stay readable.",
    auth: true,
    scope: "contacts:manage",
    params: GroupIdParams,
    success: { status: 200, description: "Deleted: the group as it was.", schema: GroupSchema },
    errors: ["not_found"],
    example: { params: { id: 7 }, readerParams: async (userId) => ({ id: (await latestGroupIds(userId)).groupId }) },
    handle: async ({ userId, params }) => ({ body: await deleteApiGroup(userId, params.id) }),
  }),
];
