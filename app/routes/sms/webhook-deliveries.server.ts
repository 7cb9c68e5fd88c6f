// The buttons of one webhook endpoint's screen (test event, new secret, on and off, delete, send again).
import { parseWithZod } from "#app/web/forms.ts";
import { data, href } from "react-router";
import { z } from "zod";
import {
  WebhookEndpointOffError,
  WebhookManualSendsLimitError,
  WebhookNotFoundError,
} from "#app/modules/webhooks/errors.ts";
import { deleteEndpoint, rotateEndpointSecret, updateEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { redeliver, sendTestEvent } from "#app/modules/webhooks/deliveries.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";

const IdIntent = z.object({
  intent: z.enum(["test", "rotate", "enable", "disable", "delete", "redeliver"]),
  deliveryId: z.coerce.number().int().positive().optional(),
});

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
        await rotateEndpointSecret(userId, endpointId);
        // Shown by this page's ?secret=show, read from SQLite, never put in a cookie.
        return redirectWithToast(`${here}?secret=show`, { description: "New signing secret made: copy it below." });
      case "enable":
      case "disable": {
        const enabled = submission.value.intent === "enable";
        await updateEndpoint(userId, endpointId, { enabled });
        return redirectWithToast(here, { description: enabled ? "Endpoint turned on." : "Endpoint turned off." });
      }
      case "delete": {
        const endpoint = await deleteEndpoint(userId, endpointId);
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
