// Scheduled messages as the REST API shows them: a one-off schedule of the scheduling module (the
// same rules and the same runner as the Schedule SMS screen) under an id of its own kind, sch_<id>,
// that reads as a message: status `scheduled` until it goes out, then the status of the message it
// became.
import { getUserById } from "#app/modules/auth/users.server.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { TIMING_MESSAGES } from "#app/modules/scheduling/recurrence.ts";
import {
  cancelSchedule,
  createSchedule,
  getSchedule,
  latestWaitingScheduleId,
  type Schedule,
  type ScheduleField,
  ScheduleInputError,
} from "#app/modules/scheduling/schedules.server.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { pricedFor } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import {
  getApiMessage,
  getOccurrenceMessage,
  idempotencyConflict,
  keyUsedByMessage,
} from "#app/api/resources/message-sends.server.ts";
import { type ApiMessage, type ApiScheduledMessage, SCHEDULED_ID_PREFIX } from "#app/api/resources/message-schemas.ts";

type OneOff = Schedule & { target: { kind: "phone"; to: string } };

// The domain's field names as POST /messages spells them.
const API_FIELDS: Partial<Record<ScheduleField, string>> = {
  target: "to",
  body: "body",
  firstSend: "sendAt",
  from: "from",
};

function isOneOff(schedule: Schedule | null): schedule is OneOff {
  return schedule !== null && schedule.repeat === "none" && schedule.target.kind === "phone";
}

/** As it waits for sendAt; also the answer POST /messages gives (and gives again to a replay). */
async function waiting(schedule: OneOff): Promise<ApiScheduledMessage> {
  const { encoding, credits, segments } = pricedFor(
    countSegments(schedule.body),
    await currentPriceList(),
    schedule.target.to,
  );
  return {
    direction: "outbound",
    id: `${SCHEDULED_ID_PREFIX}${schedule.id}`,
    to: schedule.target.to,
    from: schedule.from,
    body: schedule.body,
    encoding,
    segments,
    credits,
    status: "scheduled",
    statusDetail: null,
    groupSendId: null,
    errorCode: null,
    errorMessage: null,
    sendAt: new Date(schedule.firstSendAt).toISOString(),
    createdAt: new Date(schedule.createdAt).toISOString(),
    submittedAt: null,
    doneAt: null,
    updatedAt: new Date(schedule.createdAt).toISOString(),
    messageId: null,
  };
}

async function present(userId: number, schedule: OneOff): Promise<ApiScheduledMessage> {
  const answer = await waiting(schedule);
  const message = await getOccurrenceMessage(userId, schedule.id, schedule.firstSendAt);
  if (message)
    return { ...message, id: answer.id, sendAt: answer.sendAt, createdAt: answer.createdAt, messageId: message.id };
  return schedule.status === "cancelled"
    ? { ...answer, status: "cancelled", updatedAt: new Date(schedule.updatedAt).toISOString() }
    : answer;
}

/**
 * Schedules one message for `sendAt` through the scheduling module (the Schedule SMS screen's
 * rules: in the future; the balance must pay it now, it is charged when it goes out). An
 * Idempotency-Key is kept on the schedule: a repeat answers the first answer.
 */
export async function scheduleApiMessage(
  userId: number,
  input: { to: string; body: string; sendAt: string; from?: string },
  idempotencyKey: string | undefined,
): Promise<{ message: ApiScheduledMessage; replayed: boolean }> {
  if (idempotencyKey !== undefined && (await keyUsedByMessage(userId, idempotencyKey))) throw idempotencyConflict();
  const firstSendAt = Date.parse(input.sendAt);
  let schedule: Schedule & { duplicate: boolean };
  try {
    schedule = await createSchedule(
      userId,
      // The zone only labels it on the Scheduled SMS screen: a one-off has no wall-clock rule.
      {
        target: { kind: "phone", to: input.to },
        body: input.body,
        repeat: "none",
        firstSendAt,
        timeZone: (await getUserById(userId))?.timeZone ?? "UTC",
        from: input.from,
      },
      { apiRef: idempotencyKey },
    );
  } catch (error) {
    if (error instanceof ScheduleInputError) {
      const issue = error.issues[0];
      const message = issue.message === TIMING_MESSAGES.past ? "sendAt must be in the future" : issue.message;
      if (issue.field === "from") throw new ApiError("unknown_sender", message, { field: "from" });
      throw new ApiError("validation_failed", message, { field: API_FIELDS[issue.field] });
    }
    if (error instanceof InsufficientCreditsError) {
      throw new ApiError(
        "insufficient_credits",
        `Not enough credits: this message costs ${error.needed} when it goes out and your balance is ${error.balance}. Nothing was scheduled.`,
      );
    }
    throw error;
  }
  const same = schedule.body === input.body && schedule.firstSendAt === Math.floor(firstSendAt / 1000) * 1000;
  if (!isOneOff(schedule) || (schedule.duplicate && (schedule.target.to !== input.to || !same)))
    throw idempotencyConflict();
  // A replay gets the first answer again: what became of the message is for GET /messages/{id}.
  return { message: await waiting(schedule), replayed: schedule.duplicate };
}

/** The id of the user's newest scheduled message still waiting, for the documentation's examples. */
export async function latestScheduledMessageId(userId: number): Promise<string | null> {
  const id = await latestWaitingScheduleId(userId);
  return id === null ? null : `${SCHEDULED_ID_PREFIX}${id}`;
}

function scheduledIdOf(id: string): number {
  return Number(id.slice(SCHEDULED_ID_PREFIX.length));
}

/** A message (by number) or a scheduled message (sch_N) of the user; ApiError not_found otherwise. */
export async function getApiMessageById(
  userId: number,
  id: number | string,
): Promise<ApiMessage | ApiScheduledMessage> {
  if (typeof id === "number") {
    const message = await getApiMessage(userId, id);
    if (!message) throw notFoundError("message");
    return message;
  }
  const schedule = await getSchedule(userId, scheduledIdOf(id));
  if (!isOneOff(schedule)) throw notFoundError("message");
  return await present(userId, schedule);
}

/**
 * Cancels a scheduled message that has not gone out; cancelling it again answers the same. A
 * message that went out (or any sent message's own id) is a 409, someone else's id a 404.
 */
export async function cancelApiMessage(userId: number, id: number | string): Promise<ApiScheduledMessage> {
  if (typeof id === "number") {
    if (!(await getApiMessage(userId, id))) throw notFoundError("message");
    throw new ApiError(
      "already_sent",
      `Message ${id} has already been sent: only a scheduled message (an sch_ id) can be cancelled`,
    );
  }
  const schedule = await getSchedule(userId, scheduledIdOf(id));
  if (!isOneOff(schedule)) throw notFoundError("message");
  const wentOut = async (current: OneOff) => {
    const message = await present(userId, current);
    if (message.messageId !== null || current.status === "completed") {
      throw new ApiError(
        "already_sent",
        `This scheduled message went out${message.messageId ? ` as message ${message.messageId}` : ""}: it cannot be cancelled`,
      );
    }
    return message;
  };
  await wentOut(schedule);
  // An occurrence already running when the cancel lands still goes out: the second look says so.
  return await wentOut({ ...(await cancelSchedule(userId, schedule.id)), target: schedule.target });
}
