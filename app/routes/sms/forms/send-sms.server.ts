// The send form's action, shared by /sms/sendSms and /sms/documentation (both show the form).
import { parseWithZod } from "#app/web/forms.ts";
import { data } from "react-router";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { unexpectedFormFailure } from "#app/web/unexpected-failure.server.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import {
  createCheckCostSchema,
  createSendSmsSchema,
  SEND_INTENT,
  type SmsFormConfig,
} from "#app/modules/messaging/schemas.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { type QueuedMessage, queueMessage } from "#app/modules/sms/send.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { renderForPhone, UnrenderableMessageError } from "#app/modules/templates/templates.server.ts";
import { EMAIL_UNVERIFIED_MESSAGE, mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";

const SMS_SENT = "SMS sent successfully!";
export const NOT_ENOUGH_CREDITS = "Failed to send SMS, please check to ensure that you have enough credits";
/** When the send fails for another reason than the input or the balance (e.g. the database). */
export const SMS_SEND_ERROR = "Error sending SMS";

/** Sent, or held by quiet hours until a time shown in the sender's zone. */
export function sentDescription(queued: QueuedMessage, timeZone: string): string {
  if (queued.deferredUntil === undefined) return SMS_SENT;
  const until = `${formatDateTime(queued.deferredUntil, timeZone)} (${timeZone.replaceAll("_", " ")})`;
  return `SMS queued. Deferred until ${until}: it is quiet hours where the recipient is.`;
}

/** "Check cost": the counter without JavaScript, from the posted values (which the form keeps). */
export function checkCost(formData: FormData, config: SmsFormConfig) {
  const submission = parseWithZod(formData, { schema: createCheckCostSchema(config) });
  return data(submission.reply(), { status: submission.status === "success" ? 200 : 400 });
}

/** A refused send's message beside the field it is about: the number opted out, an unknown sender, a merge field without a value. */
export function sendFieldError(error: unknown, phoneField = "phoneNumber"): Record<string, string[]> | null {
  if (error instanceof OptedOutError) return { [phoneField]: [optedOutMessage(error.phones[0])] };
  if (error instanceof UnrenderableMessageError) return { message: [error.message] };
  if (error instanceof UnknownSenderError) return { from: [error.message] };
  return null;
}

export const optedOutMessage = (phone: string) =>
  `${phone} has opted out of your messages (they replied STOP or you added them to your opt-outs), so it was not sent.`;

/**
 * "Check cost" answers with the posted values, so the page shows the counter without JavaScript;
 * a send queues the message and comes back to `successPath` with a clean form.
 */
export async function sendSmsFormAction(request: Request, userId: number, successPath: string, timeZone = "UTC") {
  const formData = await request.formData();
  const config = smsFormConfig();
  if (formData.get("intent") === SEND_INTENT.check) return checkCost(formData, config);
  const submission = parseWithZod(formData, { schema: createSendSmsSchema(config) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (await mustVerifyEmail(userId))
    return data(submission.reply({ formErrors: [EMAIL_UNVERIFIED_MESSAGE] }), { status: 403 });
  let queued;
  try {
    const { phoneNumber, message, from, ignoreQuietHours } = submission.value;
    const body = await renderForPhone(userId, phoneNumber, message);
    const respectQuietHours = !ignoreQuietHours;
    queued = await queueMessage(userId, { to: phoneNumber, body, from, source: "web", respectQuietHours });
  } catch (error) {
    const fieldError = sendFieldError(error);
    if (fieldError) return data(submission.reply({ fieldErrors: fieldError }), { status: 400 });
    if (!(error instanceof InsufficientCreditsError)) return unexpectedFormFailure(submission, SMS_SEND_ERROR, error);
    // Inline rather than a toast: it must show on this very response when JavaScript is off.
    const detail = `This message costs ${pluralize(error.needed, "credit")}; your balance is ${pluralize(error.balance, "credit")}.`;
    return data(submission.reply({ formErrors: [NOT_ENOUGH_CREDITS, detail] }), { status: 400 });
  }
  return redirectWithToast(successPath, { description: sentDescription(queued, timeZone) });
}
