// The webhook endpoints resource's shapes: what creating and changing an endpoint takes, and the
// endpoint, delivery and test-event answers.
import { z } from "zod";
import { cursorPage, idParams, positiveId } from "#app/api/schemas.ts";
import { WEBHOOK_EVENT_TYPES } from "#app/modules/webhooks/event-types.ts";

export const EXAMPLE_URL = "https://example.com/webhooks/sms";

export const EndpointIdParams = idParams("One of your webhook endpoints' id (GET /api/v1/webhooks).");
export const DeliveryIdParams = z.strictObject({
  id: positiveId().meta({ description: "One of your webhook endpoints' id." }),
  deliveryId: positiveId().meta({ description: "One of its deliveries (GET /api/v1/webhooks/{id}/deliveries)." }),
});

const urlField = z
  .string()
  .trim()
  .min(1, "url is required")
  .max(2000, "url is too long")
  .meta({
    description:
      "Where events are POSTed: https (http only on a test-mode gateway); it must resolve to a public address.",
    examples: [EXAMPLE_URL],
  });
const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, "events must name at least one event")
  .transform((events) => [...new Set(events)])
  .meta({ description: "The events it receives.", examples: [["message.delivered", "message.failed"]] });
const enabledField = z.boolean().meta({ description: "false: nothing is sent to it (its events are not kept)." });

export const CreateWebhookRequest = z.strictObject({
  url: urlField,
  events: eventsField,
  enabled: enabledField.default(true),
});
export const UpdateWebhookRequest = z
  .strictObject({ url: urlField.optional(), events: eventsField.optional(), enabled: enabledField.optional() })
  .refine((body) => Object.keys(body).length > 0, "Give at least one of url, events and enabled");

export const WebhookSchema = z.object({
  id: z.int().positive(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  failingSince: z.string().nullable().meta({ description: "Since when deliveries fail (null while they succeed)." }),
  disabledReason: z
    .string()
    .nullable()
    .meta({ description: "Why the gateway turned it off (failing for 3 days); null otherwise." }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().meta({
    description:
      "The signing secret (whsec_...), shown this once: verify each delivery's webhook-signature with it (Standard Webhooks).",
  }),
});
export const WebhookListSchema = z.object({ data: z.array(WebhookSchema) });
export const DeliverySchema = z.object({
  id: z.int().positive(),
  eventId: z.string().meta({ description: "The webhook-id header: the same on every retry and redelivery." }),
  type: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.int().nonnegative(),
  lastStatusCode: z.int().nullable(),
  lastDurationMs: z.int().nullable(),
  lastAnswer: z.string().nullable().meta({ description: "At most 1 KB of the last answer, or why there was none." }),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable().meta({ description: "When a pending delivery is tried next." }),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export const DeliveryListSchema = cursorPage(DeliverySchema, "Newest first.");
export const ListDeliveriesQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "cursor is not one this API gave")
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const TestEventSchema = z.object({ eventId: z.string() });
