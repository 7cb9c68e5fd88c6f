// The contact and group screens' form handling: parse, call the domain, answer with a redirect and
// toast or the errors. Shared by the create pages and the lists' inline panels.
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, redirect } from "react-router";
import { getEnv } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { unexpectedFormFailure } from "#app/web/unexpected-failure.server.ts";
import type { SessionUser } from "#app/modules/auth/users.server.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { QuotaExceededError } from "#app/modules/quotas/quotas.server.ts";
import { schedulePanelAction } from "#app/routes/sms/forms/schedule-sms.server.ts";
import { deleteGroup } from "#app/modules/scheduling/cancel.server.ts";
import { SCHEDULE_INTENT } from "#app/modules/scheduling/schemas.ts";
import { createCheckCostSchema } from "#app/modules/messaging/schemas.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import {
  NOT_ENOUGH_CREDITS,
  optedOutMessage,
  sendFieldError,
  sentDescription,
  SMS_SEND_ERROR,
} from "#app/routes/sms/forms/send-sms.server.ts";
import { OptedOutError } from "#app/modules/opt-outs/errors.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { createContact, deleteContact, getContact, updateContact } from "#app/modules/contacts/contacts.server.ts";
import {
  DuplicateGroupNameError,
  DuplicatePhoneError,
  EmptyGroupError,
  InactiveContactError,
  NotFoundError,
} from "#app/modules/contacts/errors.ts";
import { startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { templatedGroupSendCheck } from "#app/routes/sms/forms/templates.server.ts";
import { renderForPhone } from "#app/modules/templates/templates.server.ts";
import { EMAIL_UNVERIFIED_MESSAGE, mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { createGroup, updateGroup } from "#app/modules/contacts/groups.server.ts";
import {
  createContactSchema,
  createEditContactSchema,
  createPanelSendSchema,
  DeleteSchema,
  EditGroupSchema,
  GroupSchema,
  SEND_PANEL_INTENT,
} from "#app/modules/contacts/schemas.ts";
import { CONTACTS_PATH, GROUPS_PATH, type ListQuery, listHref, readListQuery, TEXT } from "#app/web/contact-lists.ts";

/** The spec's "Failed to ... ." followed by the reasons, above the form; field errors stay beside their fields. */
function failed<T>(
  submission: Submission<T>,
  headline: string,
  extra: { field?: string; message: string } | null = null,
) {
  const fieldErrors: Record<string, string[]> = {};
  if (extra?.field) fieldErrors[extra.field] = [extra.message];
  const invalid: Record<string, string[] | null> = submission.status === "error" ? (submission.error ?? {}) : {};
  const reasons = [...Object.values(invalid).flatMap((e) => e ?? []), ...(extra ? [extra.message] : [])];
  return data(submission.reply({ formErrors: [headline, ...new Set(reasons)], fieldErrors }), { status: 400 });
}

/** The list the action came from, without its panel (where a panel goes after success). */
function backToList(request: Request, path: string, keep: Partial<ListQuery> = {}): string {
  const { page, group } = readListQuery(request.url);
  return listHref(path, { page, group, ...keep });
}

export async function createContactAction(
  formData: FormData,
  userId: number,
  listPageOf: (contactId: number) => Promise<number>,
) {
  const submission = parseWithZod(formData, { schema: createContactSchema(getEnv().DEFAULT_COUNTRY) });
  if (submission.status !== "success") return failed(submission, TEXT.contactCreateFailed);
  const { name, phoneNumber: phone, email, timeZone, groupIds } = submission.value;
  try {
    const contact = await createContact(userId, { name, phone, email, timeZone, groupIds });
    return redirectWithToast(listHref(CONTACTS_PATH, { page: await listPageOf(contact.id) }), {
      description: TEXT.contactCreated,
    });
  } catch (error) {
    if (error instanceof DuplicatePhoneError)
      return failed(submission, TEXT.contactCreateFailed, { field: "phoneNumber", message: error.message });
    if (error instanceof QuotaExceededError)
      return failed(submission, TEXT.contactCreateFailed, { message: error.message });
    if (error instanceof NotFoundError) throw notFound();
    return unexpectedFormFailure(submission, TEXT.contactCreateError, error);
  }
}

export async function createGroupAction(formData: FormData, userId: number) {
  const submission = parseWithZod(formData, { schema: GroupSchema });
  if (submission.status !== "success") return failed(submission, TEXT.groupCreateFailed);
  try {
    await createGroup(userId, { name: submission.value.groupName, description: submission.value.description });
  } catch (error) {
    if (error instanceof DuplicateGroupNameError)
      return failed(submission, TEXT.groupCreateFailed, { field: "groupName", message: error.message });
    if (error instanceof QuotaExceededError)
      return failed(submission, TEXT.groupCreateFailed, { message: error.message });
    return unexpectedFormFailure(submission, TEXT.groupCreateError, error);
  }
  return redirectWithToast(GROUPS_PATH, { description: TEXT.groupCreated });
}

/** "Check cost" without JavaScript: the counter for the posted message, the panel kept open. */
function checkCost(formData: FormData) {
  const submission = parseWithZod(formData, { schema: createCheckCostSchema(smsFormConfig()) });
  return data(submission.reply(), { status: submission.status === "success" ? 200 : 400 });
}

/**
 * Delete (after the confirmation): back to the list with the toast, or the confirmation again with
 * the spec's message in it when the database fails (the delete is one statement or one
 * transaction: all or nothing); another user's id is a 404.
 */
async function deleteIntent(
  formData: FormData,
  request: Request,
  path: string,
  remove: (id: number) => boolean | Promise<boolean>,
  messages: { deleted: string; failed: string },
) {
  const submission = parseWithZod(formData, { schema: DeleteSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  let removed: boolean;
  try {
    removed = await remove(submission.value.id);
  } catch (error) {
    return unexpectedFormFailure(submission, messages.failed, error);
  }
  if (!removed) throw notFound();
  return redirectWithToast(backToList(request, path), { description: messages.deleted });
}

function creditsShort(error: InsufficientCreditsError, what: string) {
  return [
    NOT_ENOUGH_CREDITS,
    `${what} costs ${pluralize(error.needed, "credit")}; your balance is ${pluralize(error.balance, "credit")}.`,
  ];
}

/** The contacts list's forms: update (edit panel), delete, send (send panel), schedule (schedule panel). */
export async function contactsListAction(request: Request, user: SessionUser) {
  const userId = user.id;
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "delete")
    return deleteIntent(formData, request, CONTACTS_PATH, (id) => deleteContact(userId, id), {
      deleted: TEXT.contactDeleted,
      failed: TEXT.contactDeleteError,
    });
  if (intent === SEND_PANEL_INTENT.check) return checkCost(formData);
  if (intent === SCHEDULE_INTENT.schedule) {
    // A schedule for the contact's number as it is now; an opted-out contact is refused, as a send is.
    const targetOf = async (id: number) => {
      const contact = await getContact(userId, id);
      if (!contact) throw new NotFoundError("contact");
      if (!contact.status) throw new InactiveContactError();
      return { kind: "phone" as const, to: contact.phone };
    };
    return schedulePanelAction(formData, user, targetOf, backToList(request, CONTACTS_PATH));
  }
  if (intent === SEND_PANEL_INTENT.send) {
    const submission = parseWithZod(formData, { schema: createPanelSendSchema(getEnv().SMS_MAX_SEGMENTS) });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const contact = await getContact(userId, submission.value.id);
    if (!contact) throw notFound();
    if (!contact.status)
      return data(submission.reply({ formErrors: [new InactiveContactError().message] }), { status: 400 });
    if (await mustVerifyEmail(userId))
      return data(submission.reply({ formErrors: [EMAIL_UNVERIFIED_MESSAGE] }), { status: 403 });
    let queued;
    try {
      queued = await queueMessage(userId, {
        to: contact.phone,
        body: await renderForPhone(userId, contact.phone, submission.value.message),
        from: submission.value.from,
        source: "web",
        contactId: contact.id,
        // A single send: held by quiet hours like the send form's, whose checkbox overrides them.
        respectQuietHours: true,
      });
    } catch (error) {
      // The panel's field is the message: the refusal shows above it, naming the contact's number.
      if (error instanceof OptedOutError)
        return data(submission.reply({ formErrors: [optedOutMessage(contact.phone)] }), { status: 400 });
      const fieldError = sendFieldError(error);
      if (fieldError) return data(submission.reply({ fieldErrors: fieldError }), { status: 400 });
      if (!(error instanceof InsufficientCreditsError)) return unexpectedFormFailure(submission, SMS_SEND_ERROR, error);
      return data(submission.reply({ formErrors: creditsShort(error, "This message") }), { status: 400 });
    }
    return redirectWithToast(backToList(request, CONTACTS_PATH), {
      description: sentDescription(queued, user.timeZone),
    });
  }
  const submission = parseWithZod(formData, { schema: createEditContactSchema(getEnv().DEFAULT_COUNTRY) });
  if (submission.status !== "success") return failed(submission, TEXT.contactUpdateFailed);
  const { id, name, phoneNumber: phone, email, timeZone, groupIds, active } = submission.value;
  let updated;
  try {
    updated = await updateContact(userId, id, { name, phone, email, timeZone, groupIds, status: active });
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound();
    if (error instanceof DuplicatePhoneError)
      return failed(submission, TEXT.contactUpdateFailed, { field: "phoneNumber", message: error.message });
    return unexpectedFormFailure(submission, TEXT.contactUpdateFailed, error);
  }
  if (!updated) throw notFound();
  return redirectWithToast(backToList(request, CONTACTS_PATH), { description: TEXT.contactUpdated });
}

/**
 * The groups list's forms: update (edit panel), delete, send to the whole group (send panel),
 * schedule for the whole group (schedule panel: each occurrence goes to the members of that moment).
 */
export async function groupsListAction(request: Request, user: SessionUser) {
  const userId = user.id;
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "delete")
    return deleteIntent(formData, request, GROUPS_PATH, (id) => deleteGroup(userId, id), {
      deleted: TEXT.groupDeleted,
      failed: TEXT.groupDeleteError,
    });
  if (intent === SEND_PANEL_INTENT.check) return checkCost(formData);
  if (intent === SCHEDULE_INTENT.schedule) {
    return schedulePanelAction(
      formData,
      user,
      (id) => ({ kind: "group", groupId: id }),
      backToList(request, GROUPS_PATH),
      (value) => templatedGroupSendCheck(userId, value.id, value.message, value.from, value.quoted),
    );
  }
  if (intent === SEND_PANEL_INTENT.send) {
    const submission = parseWithZod(formData, { schema: createPanelSendSchema(getEnv().SMS_MAX_SEGMENTS) });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const { id, message, requestKey } = submission.value;
    if (await mustVerifyEmail(userId))
      return data(submission.reply({ formErrors: [EMAIL_UNVERIFIED_MESSAGE] }), { status: 403 });
    // A message with merge fields: the total first, sent once confirmed unchanged.
    const templateQuote = await templatedGroupSendCheck(
      userId,
      id,
      message,
      submission.value.from,
      submission.value.quoted,
    );
    if (templateQuote) return data({ ...submission.reply(), templateQuote });
    try {
      const report = await startGroupSend(userId, id, message, { requestKey, from: submission.value.from });
      // The result panel follows the fan-out and reports what it did.
      return redirect(backToList(request, GROUPS_PATH, { panel: "sent", id, send: report.id }));
    } catch (error) {
      if (error instanceof EmptyGroupError || error instanceof InactiveContactError) {
        return data(submission.reply({ formErrors: [error.message] }), { status: 400 });
      }
      if (error instanceof InsufficientCreditsError) {
        return data(
          submission.reply({
            formErrors: creditsShort(error, "Sending this message to every active contact of the group"),
          }),
          {
            status: 400,
          },
        );
      }
      if (error instanceof NotFoundError) throw notFound();
      const fieldError = sendFieldError(error);
      if (fieldError) return data(submission.reply({ fieldErrors: fieldError }), { status: 400 });
      return unexpectedFormFailure(submission, SMS_SEND_ERROR, error);
    }
  }
  const submission = parseWithZod(formData, { schema: EditGroupSchema });
  if (submission.status !== "success") return failed(submission, TEXT.groupUpdateFailed);
  const { id, groupName, description } = submission.value;
  let updated;
  try {
    updated = await updateGroup(userId, id, { name: groupName, description });
  } catch (error) {
    if (error instanceof DuplicateGroupNameError)
      return failed(submission, TEXT.groupUpdateFailed, { field: "groupName", message: error.message });
    return unexpectedFormFailure(submission, TEXT.groupUpdateFailed, error);
  }
  if (!updated) throw notFound();
  return redirectWithToast(backToList(request, GROUPS_PATH), { description: TEXT.groupUpdated });
}
