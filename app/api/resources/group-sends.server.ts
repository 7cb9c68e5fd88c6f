// Group sends on the REST API: one SMS to every member of a group, created in the background and
// followed by its report, on the contacts module's group-send functions (the Groups screen's rules).
import { z } from "zod";
import { describeGroupSend, type GroupSendReport, SKIP_REASONS } from "#app/modules/group-sends/group-send.ts";
import {
  getGroupSendReport,
  latestGroupSendId,
  listGroupSendReportsBefore,
  startGroupSend,
} from "#app/modules/group-sends/group-send.server.ts";
import { latestGroupId } from "#app/modules/contacts/groups.server.ts";
import { GROUP_SEND_STATUSES } from "#app/db/schema/contacts.ts";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { idPage, readIdPosition } from "#app/api/cursor.server.ts";
import { notFoundError } from "#app/api/errors.ts";
import { idempotencyConflict } from "#app/api/resources/message-sends.server.ts";
import { fromConfig, refuseUnverifiedSender, replayed } from "#app/api/route-helpers.server.ts";
import {
  cursorField,
  cursorPage,
  GroupIdParams,
  groupSendIdField,
  idParams,
  limitField,
  senderField,
} from "#app/api/schemas.ts";
import { messageBodyField } from "#app/modules/messaging/schemas.ts";

const GroupSendIdParams = idParams("The group send's id, as POST /api/v1/groups/{id}/messages answered it.");

const ListGroupSendsQuery = z.strictObject({
  cursor: cursorField("group sends"),
  limit: limitField("Group sends"),
});

const requests = fromConfig((config) => {
  const GroupSendRequest = z.strictObject({
    body: messageBodyField(config.maxSegments).meta({
      description: `Message text sent to every active member, in up to ${config.maxSegments} parts; 1 credit per part and member.`,
      examples: ["Our store opens at 9 tomorrow"],
    }),
    from: senderField.meta({
      description: "One of your senders; leave out for your default.",
      examples: ["AcmeAlerts"],
    }),
  });
  return { GroupSendRequest };
});

export const GroupSendSchema = z.object({
  id: groupSendIdField(),
  groupId: z.int().positive().nullable().meta({ description: "null once the group has been deleted." }),
  groupName: z.string(),
  body: z.string(),
  status: z.enum(GROUP_SEND_STATUSES).meta({
    description: "queued (waiting to start), running (creating the messages), done, or failed (see stopReason).",
  }),
  finished: z.boolean().meta({ description: "true once done or failed: the counts are final." }),
  total: z.int().nonnegative().meta({ description: "Members of the group when the send started." }),
  queued: z.int().nonnegative().meta({ description: "Messages queued so far; follow each in GET /api/v1/messages." }),
  credits: z.int().nonnegative().meta({ description: "Credits charged so far." }),
  skipped: z
    .int()
    .nonnegative()
    .meta({ description: "Members not sent to (opted out, or a number that is not valid)." }),
  skips: z.array(z.object({ name: z.string(), phone: z.string(), reason: z.string() })).meta({
    description: `The first 10 skipped members and why: "${SKIP_REASONS.optedOut}", "${SKIP_REASONS.optOutList}" or "${SKIP_REASONS.invalid}".`,
  }),
  stopReason: z.string().nullable().meta({ description: "Why it stopped early or failed (e.g. the credits ran out)." }),
  summary: z.string().meta({
    description: "The report as the Groups screen words it.",
    examples: [
      "Queued 98 messages (196 credits); skipped 2: +12025550100 opted out, +12025550101 invalid phone number.",
    ],
  }),
  statusUrl: z.string().meta({ description: "Where to follow its progress until `finished`." }),
});
type ApiGroupSend = z.infer<typeof GroupSendSchema>;

export const GroupSendListSchema = cursorPage(GroupSendSchema, "Newest first.");

/** The user's newest group and group send, for the documentation's examples. */
export async function latestGroupIds(userId: number): Promise<{ groupId: number | null; groupSendId: number | null }> {
  return { groupId: await latestGroupId(userId), groupSendId: await latestGroupSendId(userId) };
}

const GROUP_SENDS_PATH = "/api/v1/group-sends";

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
async function sendApiGroupMessage(
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

async function listApiGroupSends(userId: number, query: { cursor?: string; limit: number }, origin: string) {
  const before = readIdPosition(GROUP_SENDS, query.cursor);
  const rows = await listGroupSendReportsBefore(userId, { before, limit: query.limit + 1 });
  return idPage(GROUP_SENDS, rows, query.limit, (report) => presentGroupSend(report, origin));
}

async function getApiGroupSend(userId: number, id: number, origin: string): Promise<ApiGroupSend | null> {
  const report = await getGroupSendReport(userId, id);
  return report && presentGroupSend(report, origin);
}

export const GROUP_SEND_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "POST",
    path: `${API_BASE}/groups/{id}/messages`,
    operationId: "sendGroupMessage",
    tag: "Groups",
    summary: "Send an SMS to every member of a group",
    description:
      "As the Groups screen's Send SMS: the whole cost (active members x segments) must be covered, or nothing is sent (402); a group without contacts, or whose contacts all opted out, is a 422. The messages are then created in the background: follow `statusUrl` until `finished` for the counts, the skipped members and their reasons. An Idempotency-Key makes a retry answer the same group send and send nothing new.",
    auth: true,
    scope: "messages:send",
    params: GroupIdParams,
    get body() {
      return requests().GroupSendRequest;
    },
    idempotent: true,
    success: { status: 202, description: "Started: the group send and its progress so far.", schema: GroupSendSchema },
    errors: [
      "insufficient_credits",
      "not_found",
      "idempotency_conflict",
      "nothing_to_send",
      "unknown_sender",
      "email_unverified",
    ],
    example: {
      params: { id: 7 },
      body: { body: "Our store opens at 9 tomorrow" },
      readerParams: async (userId) => ({ id: (await latestGroupIds(userId)).groupId }),
    },
    handle: async ({ userId, params, body, idempotencyKey, origin }) => {
      await refuseUnverifiedSender(userId);
      const result = await sendApiGroupMessage(userId, params.id, body.body, idempotencyKey, origin, body.from);
      return { status: 202, body: result.groupSend, headers: replayed(result.replayed) };
    },
  }),
  defineRoute({
    method: "GET",
    path: GROUP_SENDS_PATH,
    operationId: "listGroupSends",
    tag: "Groups",
    summary: "List your group sends",
    description: "Newest first, a page at a time: pass `nextCursor` back as `cursor` until it is null.",
    auth: true,
    scope: "messages:read",
    query: ListGroupSendsQuery,
    success: { status: 200, description: "One page of group sends.", schema: GroupSendListSchema },
    example: { query: { limit: 10 } },
    handle: async ({ userId, query, origin }) => ({ body: await listApiGroupSends(userId, query, origin) }),
  }),
  defineRoute({
    method: "GET",
    path: `${GROUP_SENDS_PATH}/{id}`,
    operationId: "getGroupSend",
    tag: "Groups",
    summary: "Follow a group send",
    description: "Its progress while the messages are created, then the final report.",
    auth: true,
    scope: "messages:read",
    params: GroupSendIdParams,
    success: { status: 200, description: "The group send.", schema: GroupSendSchema },
    errors: ["not_found"],
    example: {
      params: { id: 3 },
      readerParams: async (userId) => ({ id: (await latestGroupIds(userId)).groupSendId }),
    },
    handle: async ({ userId, params, origin }) => {
      const groupSend = await getApiGroupSend(userId, params.id, origin);
      if (!groupSend) throw notFoundError("group send");
      return { body: groupSend };
    },
  }),
];
