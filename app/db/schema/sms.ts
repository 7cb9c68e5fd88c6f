import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { MESSAGE_STATUSES } from "#app/db/enums.ts";
import { createdAt, users } from "#app/db/schema/core.ts";

// keyword: an automatic reply to STOP, START or HELP (free of charge).
export const MESSAGE_SOURCES = ["web", "api", "schedule", "group", "keyword"] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];

export const smsMessages = sqliteTable(
  "sms_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    toPhone: text("to_phone").notNull(),
    // The sender address it goes out from (a `senders` address); null: the gateway's SMPP_SOURCE_ADDR.
    fromAddress: text("from_address"),
    body: text("body").notNull(),
    encoding: text("encoding", { enum: ["GSM-7", "UCS-2"] }).notNull(),
    segments: integer("segments").notNull(),
    // What was debited, so a refund gives back exactly that.
    credits: integer("credits").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("queued"),
    // Why it failed (or what the receipt said), shown in the history.
    error: text("error"),
    source: text("source", { enum: MESSAGE_SOURCES }).notNull().default("web"),
    // Later features: a schedule's occurrence, a group send, an API idempotency reference.
    scheduleId: integer("schedule_id"),
    occurrenceAt: integer("occurrence_at", { mode: "timestamp_ms" }),
    groupSendId: integer("group_send_id"),
    // The contact a group send (or a send from the contacts list) went to.
    contactId: integer("contact_id"),
    apiRef: text("api_ref"),
    // The API key it was sent with (null: not the API). No foreign key: deleting a key would scan every message.
    apiKeyId: integer("api_key_id"),
    // Times the worker handed it to the SMSC (a retry counts again).
    attempts: integer("attempts").notNull().default(0),
    // Held back by the account's quiet hours until then (its outbox row is due then).
    deferredUntil: integer("deferred_until", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    submittedAt: integer("submitted_at", { mode: "timestamp_ms" }),
    // When it reached a final status.
    doneAt: integer("done_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("sms_messages_user_idx").on(t.userId, t.id),
    // The API's message list filtered by status, paged by id.
    index("sms_messages_user_status_idx").on(t.userId, t.status, t.id),
    // The history's and the API's filters, each newest first (an index ends in the rowid, so "= ?"
    // keeps id order); the group send one is partial: only group messages pay for it.
    index("sms_messages_user_phone_idx").on(t.userId, t.toPhone),
    index("sms_messages_user_created_idx").on(t.userId, t.createdAt),
    // The history's status filter with a date range: the matching rows alone, newest first (decision 053).
    index("sms_messages_user_status_created_idx").on(t.userId, t.status, t.createdAt),
    index("sms_messages_user_group_send_idx")
      .on(t.userId, t.groupSendId)
      .where(sql`${t.groupSendId} is not null`),
    // A group send's messages not yet final: is the send complete (group_send.completed)? Only group
    // messages enter it, and leave it at their final status.
    index("sms_messages_group_send_unfinished_idx")
      .on(t.groupSendId)
      .where(
        sql`${t.groupSendId} is not null and ${t.status} not in ('delivered', 'undelivered', 'expired', 'rejected', 'failed')`,
      ),
    // Which accounts wrote to a phone (an inbound reply's owner) and the inbox thread's outbound side.
    index("sms_messages_to_phone_idx").on(t.toPhone, t.createdAt),
    // A duplicate scheduler tick or API retry finds the first message instead of making another.
    // Partial, like the one below: most messages have neither, and each index entry costs every insert.
    uniqueIndex("sms_messages_occurrence_unique")
      .on(t.scheduleId, t.occurrenceAt)
      .where(sql`${t.scheduleId} is not null`),
    uniqueIndex("sms_messages_api_ref_unique")
      .on(t.userId, t.apiRef)
      .where(sql`${t.apiRef} is not null`),
    // A retried group fan-out finds the member's first message instead of making another.
    uniqueIndex("sms_messages_group_send_contact_unique")
      .on(t.groupSendId, t.contactId)
      .where(sql`${t.groupSendId} is not null`),
    // The reconciler's look-up of messages stuck mid-submit.
    index("sms_messages_submitting_idx")
      .on(t.updatedAt)
      .where(sql`${t.status} = 'submitting'`),
  ],
);

/** One row per part the SMSC accepted, with its message id, so receipts find their message. */
export const smsMessageParts = sqliteTable(
  "sms_message_parts",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => smsMessages.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    providerId: text("provider_id").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("submitted"),
    error: text("error"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.part] }), index("sms_message_parts_provider_idx").on(t.providerId)],
);

/**
 * A queued message whose job may not be in Redis (yet): SQLite is the record, Redis is rebuilt from
 * it. `due_at` is when a worker should next take it (a retry's backoff moves it on); the reconciler
 * adds the job again for rows long past due, counting in `requeues`.
 */
export const smsOutbox = sqliteTable(
  "sms_outbox",
  {
    messageId: integer("message_id")
      .primaryKey()
      .references(() => smsMessages.id, { onDelete: "cascade" }),
    // Keeps the default of the column it was renamed from (SQLite cannot drop a default).
    dueAt: integer("due_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    requeues: integer("requeues").notNull().default(0),
  },
  (t) => [index("sms_outbox_due_idx").on(t.dueAt)],
);

/** Receipts that arrived before their submit_sm_resp was recorded; applied when it is. */
export const smsPendingReceipts = sqliteTable(
  "sms_pending_receipts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    providerId: text("provider_id").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    error: text("error"),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("sms_pending_receipts_provider_idx").on(t.providerId),
    index("sms_pending_receipts_received_idx").on(t.receivedAt),
  ],
);
