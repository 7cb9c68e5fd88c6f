// Schedules (one-off or repeating, to a number or a group) as the REST API shows them, on the
// scheduling module the Schedule SMS and Scheduled SMS screens use: the same rules, the same runner.
import { z } from "zod";
import { getUserById } from "#app/modules/auth/users.server.ts";
import { describeRecurrence, TIMING_MESSAGES } from "#app/modules/scheduling/recurrence.ts";
import {
  cancelSchedule,
  createSchedule,
  getSchedule,
  listSchedulesBefore,
  type Schedule,
  type ScheduleField,
  ScheduleInputError,
} from "#app/modules/scheduling/schedules.server.ts";
import type { Repeat } from "#app/modules/scheduling/recurrence.ts";
import { countSegments } from "#app/modules/sms/segments.ts";
import { decodeCursor, encodeCursor } from "#app/api/cursor.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import type { ApiSchedule } from "#app/api/schemas.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function present(schedule: Schedule): ApiSchedule {
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
    creditsPerOccurrence: countSegments(schedule.body).credits,
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

export type NewApiSchedule = {
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
export async function createApiSchedule(userId: number, input: NewApiSchedule): Promise<ApiSchedule> {
  try {
    const schedule = await createSchedule(userId, {
      target:
        input.groupId !== undefined ? { kind: "group", groupId: input.groupId } : { kind: "phone", to: input.to! },
      body: input.body,
      repeat: input.repeat,
      firstSendAt: Date.parse(input.firstSendAt),
      timeZone: input.timeZone ?? getUserById(userId)?.timeZone ?? "UTC",
      endDate: input.endDate ?? null,
      from: input.from,
    });
    return present(schedule);
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

export function getApiSchedule(userId: number, id: number): ApiSchedule {
  const schedule = getSchedule(userId, id);
  if (!schedule) throw notFoundError("schedule");
  return present(schedule);
}

const CURSOR = "sc1";
const Position = z.int().positive().max(Number.MAX_SAFE_INTEGER);

export function listApiSchedules(userId: number, query: { cursor?: string; limit: number }) {
  const before = query.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(CURSOR, query.cursor, Position);
  const rows = listSchedulesBefore(userId, { before, limit: query.limit + 1 });
  const shown = rows.slice(0, query.limit);
  return {
    data: shown.map(present),
    nextCursor: rows.length > query.limit ? encodeCursor(CURSOR, shown[shown.length - 1].id) : null,
  };
}

/** Stops its future occurrences (messages already sent stay); cancelling again answers the same. */
export async function cancelApiSchedule(userId: number, id: number): Promise<ApiSchedule> {
  return present(await cancelSchedule(userId, id));
}
