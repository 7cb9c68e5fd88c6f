import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";
import { smsMessages } from "#app/db/schema/sms.ts";

// pending: due for an attempt at next_attempt_at; delivered: a 2xx came back; failed: given up.
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An account's webhook endpoint; its signing secret sealed like API keys (AES-256-GCM under API_KEY_SECRET). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    // The event types it wants, space-separated (as API key scopes are).
    events: text("events").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    secretCiphertext: text("secret_ciphertext").notNull(),
    // The first failed attempt of the current run of failures; null while it answers.
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
    // Why the gateway turned it off (failing for days); null when the owner did, or it is on.
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId, t.id)],
);

/** The account's secret for per-message statusCallback URLs, made on first use. */
export const webhookCallbackSecrets = sqliteTable("webhook_callback_secrets", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretCiphertext: text("secret_ciphertext").notNull(),
  createdAt: createdAt(),
});

/** A message's own statusCallback URL (POST /api/v1/messages), written with the message. */
export const webhookMessageCallbacks = sqliteTable("webhook_message_callbacks", {
  messageId: integer("message_id")
    .primaryKey()
    .references(() => smsMessages.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
});

/** One event, written in the transaction of the change that caused it; its id is the webhook-id header. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    // The delivered body, as sent: {type, timestamp, data}.
    payload: text("payload").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("webhook_events_created_idx").on(t.createdAt)],
);

/** The outbox: one event to one target (an endpoint, or a message's statusCallback URL). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    // Null for a statusCallback delivery (then `url` is the target).
    endpointId: integer("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    url: text("url"),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
    lastStatusCode: integer("last_status_code"),
    lastDurationMs: integer("last_duration_ms"),
    // At most 1 KB of the answer, or why there was none (refused, timeout, redirect).
    lastAnswer: text("last_answer"),
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    // An event's deliveries: retention's "still retrying?" probe and the cascade when an event goes.
    index("webhook_deliveries_event_idx").on(t.eventId),
    // The reconciler's look-up of due deliveries; delivered and failed ones are most rows.
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
