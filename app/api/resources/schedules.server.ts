// Schedules (one-off or repeating, to a number or a group) on the REST API, on the
// scheduling module the Schedule SMS and Scheduled SMS screens use: the same rules, the same runner.
import { z } from "zod";
import { getUserById } from "#app/modules/auth/users.server.ts";
import { describeRecurrence, TIMING_MESSAGES } from "#app/modules/scheduling/recurrence.ts";
import {
  cancelSchedule,
  createSchedule,
  getSchedule,
  latestWaitingScheduleId,
  listSchedulesBefore,
  type Schedule,
  type ScheduleField,
  ScheduleInputError,
} from "#app/modules/scheduling/schedules.server.ts";
import type { Repeat } from "#app/modules/scheduling/recurrence.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { ANY_DESTINATION, type PriceList, pricedFor } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { idPage, readIdPosition } from "#app/api/cursor.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { fromConfig, refuseUnverifiedSender } from "#app/api/route-helpers.server.ts";
import {
  cursorField,
  cursorPage,
  EXAMPLE_PHONE,
  EXAMPLE_SEND_AT,
  idField,
  idParams,
  isoTime,
  limitField,
  nullableIsoTime,
  senderField,
} from "#app/api/schemas.ts";
import { REPEATS } from "#app/db/enums.ts";
import { phoneField } from "#app/modules/messaging/phone.ts";
import { messageBodyField } from "#app/modules/messaging/schemas.ts";

const ScheduleIdParams = idParams("One of your schedules' id (GET /api/v1/schedules).");

const ListSchedulesQuery = z.strictObject({ cursor: cursorField("schedules"), limit: limitField("Schedules") });

const requests = fromConfig((config) => {
  const CreateScheduleRequest = z
    .strictObject({
      to: phoneField(config.defaultCountry)
        .optional()
        .meta({ description: "The phone each occurrence goes to; or give `groupId`.", examples: [EXAMPLE_PHONE] }),
      groupId: z
        .int()
        .positive()
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .meta({ description: "One of your groups: each occurrence goes to its active members at that moment." }),
      body: messageBodyField(config.maxSegments).meta({ examples: ["Weekly reminder: team meeting at 10"] }),
      from: senderField.meta({ description: "One of your senders; leave out for your default when it runs." }),
      repeat: z.enum(REPEATS).meta({
        description:
          "none (once), daily, weekly (the first send's weekday) or monthly (its day of the month, or the month's last day): at the first send's wall-clock time in `timeZone`, summer time or not.",
      }),
      firstSendAt: z.iso
        .datetime({ offset: true, error: "firstSendAt must be a date and time with a zone, e.g. 2030-01-15T09:30:00Z" })
        .meta({ description: "The first send, in the future (to the second).", examples: [EXAMPLE_SEND_AT] }),
      timeZone: z
        .string()
        .max(64)
        .optional()
        .meta({
          description: "The IANA zone the rule lives in; leave out for your account's (Settings).",
          examples: ["Europe/London"],
        }),
      endDate: z.iso
        .date("endDate must be a date (YYYY-MM-DD)")
        .optional()
        .meta({
          description: "The last day it may send (inclusive, in `timeZone`); leave out to repeat until cancelled.",
          examples: ["2030-12-31"],
        }),
    })
    .superRefine((request, ctx) => {
      if ((request.to === undefined) === (request.groupId === undefined))
        ctx.addIssue({ code: "custom", path: ["to"], message: "Give either to or groupId" });
    });
  return { CreateScheduleRequest };
});

export const ScheduleSchema = z.object({
  id: idField(7),
  to: z.string().nullable().meta({ description: "The phone it goes to (E.164); null for a group." }),
  groupId: z
    .int()
    .positive()
    .nullable()
    .meta({ description: "The group it goes to; null for a phone, or once the group is deleted." }),
  groupName: z.string().nullable(),
  body: z.string(),
  from: z.string().nullable().meta({ description: "Its sender; null: your default when it runs." }),
  repeat: z.enum(REPEATS),
  description: z.string().meta({ description: "The rule in words.", examples: ["Weekly on Monday at 09:30"] }),
  timeZone: z.string().meta({ examples: ["Europe/London"] }),
  firstSendAt: isoTime("The first send."),
  endDate: z
    .string()
    .nullable()
    .meta({ description: "The last day it may send (in timeZone); null: until cancelled." }),
  nextSendAt: nullableIsoTime("The next occurrence; null once completed or cancelled."),
  status: z.enum(["active", "completed", "cancelled"]),
  creditsPerOccurrence: z.int().positive().meta({
    description:
      "Credits per recipient and occurrence, charged when it runs: priced for `to`; for a group, at the price of destinations without their own (a member whose number has its own price costs that).",
  }),
  createdAt: isoTime("When it was created."),
  updatedAt: isoTime("When it last changed."),
  finishedAt: nullableIsoTime("When it completed or was cancelled."),
});
type ApiSchedule = z.infer<typeof ScheduleSchema>;

const ScheduleListSchema = cursorPage(ScheduleSchema, "Newest first.");
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function present(schedule: Schedule, prices: PriceList): ApiSchedule {
  const { target } = schedule;
  return {
    id: schedule.id,
    to: target.kind === "phone" ? target.to : null,
    groupId: target.kind === "group" ? target.groupId : null,
    groupName: target.kind === "group" ? target.groupName : null,
    body: schedule.body,
    from: schedule.from,
    repeat: schedule.repeat,
    description: describeRecurrence(schedule),
    timeZone: schedule.timeZone,
    firstSendAt: new Date(schedule.firstSendAt).toISOString(),
    endDate: schedule.endDate,
    nextSendAt: iso(schedule.nextRunAt),
    status: schedule.status,
    creditsPerOccurrence: pricedFor(
      countSegments(schedule.body),
      prices,
      target.kind === "phone" ? target.to : ANY_DESTINATION,
    ).credits,
    createdAt: new Date(schedule.createdAt).toISOString(),
    updatedAt: new Date(schedule.updatedAt).toISOString(),
    finishedAt: iso(schedule.finishedAt),
  };
}

// The domain's field names as this API spells them.
const API_FIELDS: Record<ScheduleField, string> = {
  target: "to",
  body: "body",
  repeat: "repeat",
  timeZone: "timeZone",
  firstSend: "firstSendAt",
  endDate: "endDate",
  from: "from",
};

type NewApiSchedule = {
  to?: string;
  groupId?: number;
  body: string;
  from?: string;
  repeat: Repeat;
  firstSendAt: string;
  timeZone?: string;
  endDate?: string;
};

/** Creates a schedule as the Schedule SMS screen does; every invalid field in one 422. */
async function createApiSchedule(userId: number, input: NewApiSchedule): Promise<ApiSchedule> {
  try {
    const schedule = await createSchedule(userId, {
      target:
        input.groupId !== undefined ? { kind: "group", groupId: input.groupId } : { kind: "phone", to: input.to! },
      body: input.body,
      repeat: input.repeat,
      firstSendAt: Date.parse(input.firstSendAt),
      timeZone: input.timeZone ?? (await getUserById(userId))?.timeZone ?? "UTC",
      endDate: input.endDate ?? null,
      from: input.from,
    });
    return present(schedule, await currentPriceList());
  } catch (error) {
    if (!(error instanceof ScheduleInputError)) throw error;
    const errors = error.issues.map((issue) => ({
      field: API_FIELDS[issue.field],
      message: issue.message === TIMING_MESSAGES.past ? "firstSendAt must be in the future" : issue.message,
    }));
    const code = errors.every((e) => e.field === "from") ? "unknown_sender" : "validation_failed";
    throw new ApiError(code, errors[0].message, { field: errors[0].field, errors });
  }
}

async function getApiSchedule(userId: number, id: number): Promise<ApiSchedule> {
  const schedule = await getSchedule(userId, id);
  if (!schedule) throw notFoundError("schedule");
  return present(schedule, await currentPriceList());
}

const CURSOR = "sc1";

async function listApiSchedules(userId: number, query: { cursor?: string; limit: number }) {
  const rows = await listSchedulesBefore(userId, {
    before: readIdPosition(CURSOR, query.cursor),
    limit: query.limit + 1,
  });
  const prices = await currentPriceList();
  return idPage(CURSOR, rows, query.limit, (schedule) => present(schedule, prices));
}

/** Stops its future occurrences (messages already sent stay); cancelling again answers the same. */
async function cancelApiSchedule(userId: number, id: number): Promise<ApiSchedule> {
  return present(await cancelSchedule(userId, id), await currentPriceList());
}

export const SCHEDULE_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "POST",
    path: `${API_BASE}/schedules`,
    operationId: "createSchedule",
    tag: "Schedules",
    summary: "Schedule a message, once or repeating",
    description:
      "As the Schedule SMS screen: to a phone (`to`) or a group (`groupId`), once or daily, weekly or monthly at the first send's wall-clock time in an IANA time zone, until an end date or until cancelled. The balance must cover one occurrence now; each occurrence is charged when it runs (one it cannot pay becomes a failed message). A one-off to a phone is also what POST /messages with `sendAt` makes.",
    auth: true,
    scope: "messages:send",
    get body() {
      return requests().CreateScheduleRequest;
    },
    success: { status: 201, description: "Scheduled.", schema: ScheduleSchema },
    errors: [
      "insufficient_credits",
      "not_found",
      "quota_exceeded",
      "nothing_to_send",
      "unknown_sender",
      "email_unverified",
    ],
    example: {
      body: {
        to: EXAMPLE_PHONE,
        body: "Weekly reminder: team meeting at 10",
        repeat: "weekly",
        firstSendAt: EXAMPLE_SEND_AT,
        timeZone: "Europe/London",
        endDate: "2030-12-31",
      },
    },
    handle: async ({ userId, body }) => {
      await refuseUnverifiedSender(userId);
      return { status: 201, body: await createApiSchedule(userId, body) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/schedules`,
    operationId: "listSchedules",
    tag: "Schedules",
    summary: "List your schedules",
    description: "Newest first, active or not, a page at a time: pass `nextCursor` back as `cursor` until it is null.",
    auth: true,
    scope: "messages:read",
    query: ListSchedulesQuery,
    success: { status: 200, description: "One page of schedules.", schema: ScheduleListSchema },
    example: { query: { limit: 10 } },
    handle: async ({ userId, query }) => ({ body: await listApiSchedules(userId, query) }),
  }),
  defineRoute({
    method: "GET",
    path: `${API_BASE}/schedules/{id}`,
    operationId: "getSchedule",
    tag: "Schedules",
    summary: "Get one schedule",
    auth: true,
    scope: "messages:read",
    params: ScheduleIdParams,
    success: { status: 200, description: "The schedule.", schema: ScheduleSchema },
    errors: ["not_found"],
    example: { params: { id: 7 }, readerParams: async (userId) => ({ id: await latestWaitingScheduleId(userId) }) },
    handle: async ({ userId, params }) => ({ body: await getApiSchedule(userId, params.id) }),
  }),
  defineRoute({
    method: "DELETE",
    path: `${API_BASE}/schedules/{id}`,
    operationId: "cancelSchedule",
    tag: "Schedules",
    summary: "Cancel a schedule",
    description: "No occurrence runs after this; messages already sent stay. Cancelling again answers the same.",
    auth: true,
    scope: "messages:send",
    params: ScheduleIdParams,
    success: { status: 200, description: "Cancelled: the schedule with status `cancelled`.", schema: ScheduleSchema },
    errors: ["not_found"],
    example: { params: { id: 7 }, readerParams: async (userId) => ({ id: await latestWaitingScheduleId(userId) }) },
    handle: async ({ userId, params }) => ({ body: await cancelApiSchedule(userId, params.id) }),
  }),
];
