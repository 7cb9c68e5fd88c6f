// The Webhooks screens' form handling: one schema per form, the webhooks module does the work.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, href } from "react-router";
import { z } from "zod";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { VERIFY_BEFORE, verifyFirstMessage } from "#app/modules/accounts/verify-first.ts";
import {
  UnsafeWebhookUrlError,
  WebhookEndpointOffError,
  WebhookManualSendsLimitError,
  WebhookNotFoundError,
} from "#app/modules/webhooks/errors.ts";
import { WEBHOOK_EVENT_TYPES } from "#app/modules/webhooks/event-types.ts";
import {
  createEndpoint,
  deleteEndpoint,
  rotateCallbackSecret,
  rotateEndpointSecret,
  TooManyEndpointsError,
  updateEndpoint,
} from "#app/modules/webhooks/endpoints.server.ts";
import { redeliver, sendTestEvent } from "#app/modules/webhooks/deliveries.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";

const AddWebhookSchema = z.object({
  intent: z.literal("add"),
  url: z.string({ error: "Enter the URL events are sent to" }).trim().max(2000, "The URL is too long"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES), { error: "Choose at least one event" })
    .min(1, "Choose at least one event"),
  enabled: z.boolean().default(false),
});

const IdIntent = z.object({
  intent: z.enum(["test", "rotate", "enable", "disable", "delete", "redeliver"]),
  deliveryId: z.coerce.number().int().positive().optional(),
});

/** Where a secret just made is shown: the endpoint's page with ?secret=show (read from SQLite, never put in a cookie). */
const showSecret = (endpointId: number) => `${href("/sms/webhooks/:id", { id: String(endpointId) })}?secret=show`;

export async function addWebhookAction(userId: number, formData: FormData) {
  // An endpoint or a callback secret made before the address is proved could outlive its owner's reset.
  if (mustVerifyEmail(userId)) {
    const refused = parseWithZod(formData, { schema: AddWebhookSchema });
    return data(refused.reply({ formErrors: [verifyFirstMessage(VERIFY_BEFORE.webhooks)] }), { status: 403 });
  }
  if (formData.get("intent") === "rotate-callback") {
    rotateCallbackSecret(userId);
    return redirectWithToast(`${href("/sms/webhooks")}?callback=show`, {
      description: "New callback secret made: copy it below.",
    });
  }
  const submission = parseWithZod(formData, { schema: AddWebhookSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const { endpoint } = await createEndpoint(userId, submission.value);
    return redirectWithToast(showSecret(endpoint.id), {
      description: "Endpoint added: copy its signing secret below.",
    });
  } catch (error) {
    if (error instanceof UnsafeWebhookUrlError)
      return data(submission.reply({ fieldErrors: { url: [error.message] } }), { status: 400 });
    if (error instanceof TooManyEndpointsError)
      return data(submission.reply({ formErrors: [error.message] }), { status: 400 });
    throw error;
  }
}

/** The buttons of one endpoint's screen; another account's endpoint is a 404. */
export async function endpointAction(userId: number, endpointId: number, formData: FormData) {
  const submission = parseWithZod(formData, { schema: IdIntent });
  if (submission.status !== "success") throw notFound();
  const here = href("/sms/webhooks/:id", { id: String(endpointId) });
  try {
    switch (submission.value.intent) {
      case "test":
        await sendTestEvent(userId, endpointId);
        return redirectWithToast(here, { description: "Test event queued: it appears in the delivery log below." });
      case "rotate":
        rotateEndpointSecret(userId, endpointId);
        return redirectWithToast(showSecret(endpointId), { description: "New signing secret made: copy it below." });
      case "enable":
      case "disable": {
        const enabled = submission.value.intent === "enable";
        await updateEndpoint(userId, endpointId, { enabled });
        return redirectWithToast(here, { description: enabled ? "Endpoint turned on." : "Endpoint turned off." });
      }
      case "delete": {
        const endpoint = deleteEndpoint(userId, endpointId);
        return redirectWithToast(href("/sms/webhooks"), { description: `${endpoint.url} deleted.` });
      }
      case "redeliver": {
        if (!submission.value.deliveryId) throw notFound();
        await redeliver(userId, endpointId, submission.value.deliveryId);
        return redirectWithToast(here, { description: "Sent again: its new attempt appears below." });
      }
    }
  } catch (error) {
    if (error instanceof WebhookNotFoundError) throw notFound();
    // Shown in place: beside the endpoint's buttons for a test event, above the log for a redelivery.
    const refused = { intent: submission.value.intent, error: (error as Error).message };
    if (error instanceof WebhookEndpointOffError) return data(refused, { status: 409 });
    if (error instanceof WebhookManualSendsLimitError)
      return data(refused, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
    throw error;
  }
}
