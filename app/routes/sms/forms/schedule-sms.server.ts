// The schedule form's loader data and actions: the Schedule SMS screen (any number) and the schedule
// panels of the contacts and groups lists (the row's contact or group).
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, href } from "react-router";
import { z } from "zod";
import { clock } from "#app/utils/clock.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import { canonicalTimeZone, timeZoneNames } from "#app/utils/time-zone.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { unexpectedFormFailure } from "#app/web/unexpected-failure.server.ts";
import { setUserTimeZone, type SessionUser } from "#app/modules/auth/users.server.ts";
import { EmptyGroupError, InactiveContactError, NotFoundError } from "#app/modules/contacts/errors.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { EMAIL_UNVERIFIED_MESSAGE, mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { QuotaExceededError } from "#app/modules/quotas/quotas.server.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";
import { checkCost } from "#app/routes/sms/forms/send-sms.server.ts";
import { uniformMessageCredits } from "#app/modules/group-sends/group-quote.server.ts";
import { isUniform } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { renderForPhone, UnrenderableMessageError } from "#app/modules/templates/templates.server.ts";
import {
  cancelSchedule,
  createSchedule,
  type ScheduleField,
  ScheduleInputError,
  ScheduleNotFoundError,
  type ScheduleTarget,
} from "#app/modules/scheduling/schedules.server.ts";
import type { Repeat } from "#app/modules/scheduling/recurrence.ts";
import {
  createSchedulePanelSchema,
  createScheduleSmsSchema,
  SCHEDULE_INTENT,
} from "#app/modules/scheduling/schemas.ts";

export const SMS_SCHEDULED = "SMS scheduled successfully!";
export const SCHEDULE_FAILED = "Failed to schedule SMS, please check to ensure that you have enough credits";
export const SCHEDULE_CANCELLED = "Scheduled SMS cancelled.";

// The domain's field names as the form spells them; the target is the phone field on the screen,
// and above the form in a panel (whose recipient is fixed).
const FORM_FIELDS: Record<Exclude<ScheduleField, "target">, string> = {
  body: "message",
  repeat: "repeat",
  timeZone: "timeZone",
  firstSend: "firstSend",
  endDate: "endDate",
  from: "from",
};

export async function scheduleFormLoaderData(user: SessionUser) {
  const zones = timeZoneNames();
  return {
    config: smsFormConfig(),
    senders: await sendingSenders(user.id),
    timeZone: user.timeZone,
    // The profile's zone is listed even if this runtime spells it differently.
    timeZones: zones.includes(user.timeZone) ? zones : [user.timeZone, ...zones],
  };
}

type FormValue = {
  message: string;
  firstSendAt: number;
  timeZone: string;
  repeat: Repeat;
  endDate: string | null;
  from: string | undefined;
};
type Reply = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>;

async function creditsDetail(error: InsufficientCreditsError, target: ScheduleTarget, message: string) {
  const balance = `your balance is ${pluralize(error.balance, "credit")}.`;
  if (target.kind === "phone")
    return `Each message costs ${pluralize(error.needed, "credit")} when it is sent; ${balance}`;
  const prices = await currentPriceList();
  // Members priced by their own destinations: only the total says it.
  if (!isUniform(prices))
    return `Each time, sending it to the group costs ${pluralize(error.needed, "credit")}; ${balance}`;
  const perMessage = uniformMessageCredits(message, prices);
  return (
    `Each time, sending it to the group's ${pluralize(error.needed / perMessage, "active contact")} costs ` +
    `${pluralize(error.needed, "credit")}; ${balance}`
  );
}

/**
 * Creates the schedule and comes back to `successPath` (a clean form, or the list without its panel)
 * with the spec's toast; the zone it was entered in becomes the profile's. Not enough credits for
 * one occurrence, or an unexpected failure: the spec's message in the form (a toast cookie on a
 * failed post would only show on the next page without JavaScript). `targetOf` may throw
 * NotFoundError (someone else's id: 404).
 */
async function createFromForm<V extends FormValue>(
  value: V,
  reply: Reply,
  user: SessionUser,
  targetOf: (value: V) => ScheduleTarget | Promise<ScheduleTarget>,
  options: { successPath: string; targetField: string | null },
) {
  if (await mustVerifyEmail(user.id)) return data(reply({ formErrors: [EMAIL_UNVERIFIED_MESSAGE] }), { status: 403 });
  const { message, ...timing } = value;
  let target: ScheduleTarget | null = null;
  try {
    target = await targetOf(value);
    await createSchedule(user.id, {
      target,
      // To one number: rendered now, from the contact with that number (a group renders at each send).
      body: target.kind === "phone" ? await renderForPhone(user.id, target.to, message) : message,
      firstSendAt: timing.firstSendAt,
      timeZone: timing.timeZone,
      repeat: timing.repeat,
      endDate: timing.endDate,
      from: timing.from,
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound();
    if (error instanceof UnrenderableMessageError)
      return data(reply({ fieldErrors: { message: [error.message] } }), { status: 400 });
    if (error instanceof InsufficientCreditsError && target) {
      return data(reply({ formErrors: [SCHEDULE_FAILED, await creditsDetail(error, target, message)] }), {
        status: 400,
      });
    }
    if (
      error instanceof EmptyGroupError ||
      error instanceof InactiveContactError ||
      error instanceof QuotaExceededError
    ) {
      return data(reply({ formErrors: [error.message] }), { status: 400 });
    }
    if (error instanceof ScheduleInputError) {
      const formErrors: string[] = [];
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of error.issues) {
        const field = issue.field === "target" ? options.targetField : FORM_FIELDS[issue.field];
        if (field) (fieldErrors[field] ??= []).push(issue.message);
        else formErrors.push(issue.message);
      }
      return data(reply({ formErrors, fieldErrors }), { status: 400 });
    }
    return unexpectedFormFailure({ reply }, SCHEDULE_FAILED, error);
  }
  const timeZone = canonicalTimeZone(timing.timeZone);
  if (timeZone !== user.timeZone) await setUserTimeZone(user.id, timeZone);
  return redirectWithToast(options.successPath, { description: SMS_SCHEDULED });
}

/** The Schedule SMS screen's form: any phone number. */
export async function scheduleSmsFormAction(request: Request, user: SessionUser) {
  const formData = await request.formData();
  const config = smsFormConfig();
  if (formData.get("intent") === SCHEDULE_INTENT.check) return checkCost(formData, config);
  const submission = parseWithZod(formData, { schema: createScheduleSmsSchema({ ...config, now: clock.now() }) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  return createFromForm(
    submission.value,
    (o) => submission.reply(o),
    user,
    (value) => ({ kind: "phone", to: value.phoneNumber }),
    {
      successPath: href("/sms/scheduleSms"),
      targetField: "phoneNumber",
    },
  );
}

/**
 * A schedule panel's form (intent "schedule") on the contacts or groups list: `targetOf` turns the
 * posted row id into the target, for this user only (NotFoundError otherwise, answered with a 404).
 */
export async function schedulePanelAction(
  formData: FormData,
  user: SessionUser,
  targetOf: (id: number) => ScheduleTarget | Promise<ScheduleTarget>,
  successPath: string,
  // A total to confirm first (a templated group schedule), or null to go ahead.
  confirmFirst?: (value: { id: number; message: string; from?: string; quoted?: string }) => unknown,
) {
  const submission = parseWithZod(formData, {
    schema: createSchedulePanelSchema({ ...smsFormConfig(), now: clock.now() }),
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const templateQuote = await confirmFirst?.(submission.value);
  if (templateQuote) return data({ ...submission.reply(), templateQuote });
  return createFromForm(
    submission.value,
    (o) => submission.reply(o),
    user,
    (value) => targetOf(value.id),
    {
      successPath,
      targetField: null,
    },
  );
}

const CancelSchema = z.object({ intent: z.literal("cancel"), id: z.coerce.number().int().positive() });

/**
 * The Scheduled SMS list's "Yes, cancel it" form: cancels one of the user's schedules (someone
 * else's id: 404) and comes back to the same page of the list with the spec's toast.
 */
export async function cancelScheduleFormAction(request: Request, user: SessionUser) {
  const submission = parseWithZod(await request.formData(), { schema: CancelSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await cancelSchedule(user.id, submission.value.id);
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) throw notFound();
    throw error;
  }
  const page = positiveIntParam(new URL(request.url).searchParams, "page");
  return redirectWithToast(page ? `${href("/sms/scheduled")}?page=${page}` : href("/sms/scheduled"), {
    description: SCHEDULE_CANCELLED,
  });
}
