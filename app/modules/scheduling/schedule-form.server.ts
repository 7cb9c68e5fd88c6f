// The Schedule SMS screen's loader data and action.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { clock } from "../../utils/clock.server.ts";
import { pluralize } from "../../utils/misc.ts";
import { canonicalTimeZone, timeZoneNames } from "../../utils/time-zone.ts";
import { redirectWithToast } from "../../utils/toast.server.ts";
import { setUserTimeZone, type SessionUser } from "../auth/users.server.ts";
import { InsufficientCreditsError } from "../credits/ledger.server.ts";
import { checkCost, smsFormConfig } from "../sms/send-form.server.ts";
import { createSchedule, type ScheduleField, ScheduleInputError } from "./schedules.server.ts";
import { createScheduleSmsSchema, SCHEDULE_INTENT } from "./schemas.ts";

export const SMS_SCHEDULED = "SMS scheduled successfully!";
export const SCHEDULE_FAILED = "Failed to schedule SMS, please check to ensure that you have enough credits";
export const SCHEDULE_CANCELLED = "Scheduled SMS cancelled.";

// The domain's field names as the form spells them.
const FORM_FIELDS: Record<ScheduleField, string> = {
  target: "phoneNumber",
  body: "message",
  repeat: "repeat",
  timeZone: "timeZone",
  firstSend: "firstSend",
  endDate: "endDate",
};

export function scheduleFormLoaderData(user: SessionUser) {
  const zones = timeZoneNames();
  return {
    config: smsFormConfig(),
    timeZone: user.timeZone,
    // The profile's zone is listed even if this runtime spells it differently.
    timeZones: zones.includes(user.timeZone) ? zones : [user.timeZone, ...zones],
  };
}

/**
 * Creates the schedule and comes back to a clean form with the spec's toast; the zone it was entered
 * in becomes the profile's. Not enough credits for one occurrence: the spec's message in the form
 * (a toast cookie on a failed post would only show on the next page without JavaScript).
 */
export async function scheduleSmsFormAction(request: Request, user: SessionUser) {
  const formData = await request.formData();
  const config = smsFormConfig();
  if (formData.get("intent") === SCHEDULE_INTENT.check) return checkCost(formData, config);
  const submission = parseWithZod(formData, { schema: createScheduleSmsSchema({ ...config, now: clock.now() }) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { phoneNumber, message, ...timing } = submission.value;
  try {
    await createSchedule(user.id, { target: { kind: "phone", to: phoneNumber }, body: message, ...timing });
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      const detail = `Each message costs ${pluralize(error.needed, "credit")} when it is sent; your balance is ${pluralize(error.balance, "credit")}.`;
      return data(submission.reply({ formErrors: [SCHEDULE_FAILED, detail] }), { status: 400 });
    }
    if (error instanceof ScheduleInputError) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of error.issues) (fieldErrors[FORM_FIELDS[issue.field]] ??= []).push(issue.message);
      return data(submission.reply({ fieldErrors }), { status: 400 });
    }
    throw error;
  }
  const timeZone = canonicalTimeZone(timing.timeZone);
  if (timeZone !== user.timeZone) setUserTimeZone(user.id, timeZone);
  return redirectWithToast("/sms/scheduleSms", { description: SMS_SCHEDULED });
}
