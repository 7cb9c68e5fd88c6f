// Browser-safe: the Schedule SMS form's schema, run by conform in the browser and by the action.
import { z } from "zod";
import { instantOf, isValidTimeZone, parseDate, parseLocalDateTime } from "#app/utils/time-zone.ts";
import { fromField, messageBodyField, type SmsFormConfig } from "#app/modules/messaging/schemas.ts";
import { phoneField } from "#app/modules/messaging/phone.ts";
import { type Repeat, REPEATS, timingIssues } from "#app/modules/scheduling/recurrence.ts";

/** The spec's picker interval. */
export const STEP_MINUTES = 5;

export const SCHEDULE_INTENT = { schedule: "schedule", check: "check" } as const;

export const SCHEDULE_FORM_MESSAGES = {
  startRequired: "Start date and time is required",
  startFormat: "Enter a date and a time",
  step: `Pick a time on a ${STEP_MINUTES}-minute step (e.g. 09:00, 09:05)`,
  endFormat: "Enter a date",
  zoneRequired: "Time zone is required",
  zoneUnknown: "Unknown time zone",
  skipped: (zone: string) =>
    `This time does not exist in ${zone} on that day (the clocks go forward): pick another time`,
} as const;

const TIMING_FIELDS = new Set(["firstSend", "repeat", "endDate", "timeZone"]);

type TimingConfig = SmsFormConfig & { now: number };
type TimingFields = { firstSend: string; repeat: Repeat; endDate?: string; timeZone: string };

/** The form's own fields, whoever the recipient is. */
function scheduleFields(config: TimingConfig) {
  return {
    intent: z.literal(SCHEDULE_INTENT.schedule).default(SCHEDULE_INTENT.schedule),
    firstSend: z
      .string({ error: SCHEDULE_FORM_MESSAGES.startRequired })
      .refine((value) => parseLocalDateTime(value) !== null, SCHEDULE_FORM_MESSAGES.startFormat)
      .refine((value) => {
        const wall = parseLocalDateTime(value);
        return wall === null || (wall.minute % STEP_MINUTES === 0 && wall.second === 0);
      }, SCHEDULE_FORM_MESSAGES.step),
    repeat: z.enum(REPEATS).default("none"),
    // Checked only when repeating: without JavaScript the field is always shown, and ignored for none.
    endDate: z.string().optional(),
    timeZone: z
      .string({ error: SCHEDULE_FORM_MESSAGES.zoneRequired })
      .refine(isValidTimeZone, SCHEDULE_FORM_MESSAGES.zoneUnknown),
    message: messageBodyField(config.maxSegments),
    from: fromField,
  };
}

function checkTiming(value: TimingFields, ctx: z.RefinementCtx, now: number): void {
  const endDate = value.repeat === "none" ? null : (value.endDate ?? null);
  if (endDate !== null && !parseDate(endDate)) {
    ctx.addIssue({ code: "custom", path: ["endDate"], message: SCHEDULE_FORM_MESSAGES.endFormat });
    return;
  }
  const start = instantOf(parseLocalDateTime(value.firstSend)!, value.timeZone);
  if (start.skipped) {
    ctx.addIssue({ code: "custom", path: ["firstSend"], message: SCHEDULE_FORM_MESSAGES.skipped(value.timeZone) });
    return;
  }
  const input = { firstSendAt: start.ms, timeZone: value.timeZone, repeat: value.repeat, endDate };
  for (const issue of timingIssues(input, now))
    ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
}

// The timing check runs beside other fields' errors (all of them show at once), once its own fields are valid.
const TIMING_CHECK_WHEN = {
  when: (payload: { issues: { path?: PropertyKey[] }[] }) =>
    !payload.issues.some((issue) => TIMING_FIELDS.has(String(issue.path?.[0]))),
};

function timingOf({ firstSend, timeZone, repeat, endDate }: TimingFields) {
  return {
    firstSendAt: instantOf(parseLocalDateTime(firstSend)!, timeZone).ms,
    timeZone,
    repeat,
    endDate: repeat === "none" ? null : (endDate ?? null),
  };
}

/** The Schedule SMS screen: any phone number. `now` is the caller's clock: the browser's, or the server's injected one. */
export function createScheduleSmsSchema(config: TimingConfig) {
  return z
    .object({ ...scheduleFields(config), phoneNumber: phoneField(config.defaultCountry) })
    .superRefine((value, ctx) => checkTiming(value, ctx, config.now), TIMING_CHECK_WHEN)
    .transform((value) => ({
      ...timingOf(value),
      phoneNumber: value.phoneNumber,
      message: value.message,
      from: value.from,
    }));
}

/** The schedule panel of the contacts or groups list: the recipient is the row's contact or group (`id`). */
export function createSchedulePanelSchema(config: TimingConfig) {
  return z
    .object({
      ...scheduleFields(config),
      id: z.coerce.number().int().positive(),
      // A templated group schedule's confirmed total (the confirm step's key).
      quoted: z.string().max(200).optional(),
    })
    .superRefine((value, ctx) => checkTiming(value, ctx, config.now), TIMING_CHECK_WHEN)
    .transform((value) => ({
      ...timingOf(value),
      id: value.id,
      message: value.message,
      from: value.from,
      quoted: value.quoted,
    }));
}
