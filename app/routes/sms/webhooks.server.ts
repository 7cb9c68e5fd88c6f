// The Webhooks screen's add form (and the callback secret's rotation); the webhooks module does the work.
import { parseWithZod } from "#app/web/forms.ts";
import { data, href } from "react-router";
import { z } from "zod";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { VERIFY_BEFORE, verifyFirstMessage } from "#app/modules/accounts/verify-first.ts";
import { UnsafeWebhookUrlError } from "#app/modules/webhooks/errors.ts";
import { WEBHOOK_EVENT_TYPES } from "#app/modules/webhooks/event-types.ts";
import { createEndpoint, rotateCallbackSecret, TooManyEndpointsError } from "#app/modules/webhooks/endpoints.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";

const AddWebhookSchema = z.object({
  intent: z.literal("add"),
  url: z.string({ error: "Enter the URL events are sent to" }).trim().max(2000, "The URL is too long"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES), { error: "Choose at least one event" })
    .min(1, "Choose at least one event"),
  enabled: z.boolean().default(false),
});

/** Where a secret just made is shown: the endpoint's page with ?secret=show (read from SQLite, never put in a cookie). */
const showSecret = (endpointId: number) => `${href("/sms/webhooks/:id", { id: String(endpointId) })}?secret=show`;

export async function addWebhookAction(userId: number, formData: FormData) {
  // An endpoint or a callback secret made before the address is proved could outlive its owner's reset.
  if (await mustVerifyEmail(userId)) {
    const refused = parseWithZod(formData, { schema: AddWebhookSchema });
    return data(refused.reply({ formErrors: [verifyFirstMessage(VERIFY_BEFORE.webhooks)] }), { status: 403 });
  }
  if (formData.get("intent") === "rotate-callback") {
    await rotateCallbackSecret(userId);
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
