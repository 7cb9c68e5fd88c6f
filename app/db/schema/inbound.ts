import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "#app/db/schema/core.ts";

export const INBOUND_ENCODINGS = ["GSM-7", "Latin-1", "UCS-2"] as const;
export type InboundEncoding = (typeof INBOUND_ENCODINGS)[number];

/**
 * SMS people sent to the gateway (deliver_sm / data_sm that are not receipts), one row per whole
 * message: concatenated parts are joined first (inbound_parts). Its own table, not a direction of
 * sms_messages: see docs/decisions/050-inbound-messages-table.md.
 */
export const inboundMessages = sqliteTable(
  "inbound_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // The account it belongs to; null: nobody's (shown to admins as unassigned).
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    // E.164 when the SMSC gave an international number, otherwise as it came.
    fromPhone: text("from_phone").notNull(),
    // The address it was sent to: a sender of the gateway (number, short code).
    toAddress: text("to_address").notNull(),
    body: text("body").notNull(),
    encoding: text("encoding", { enum: INBOUND_ENCODINGS }).notNull(),
    parts: integer("parts").notNull(),
    // What makes a retransmitted PDU the same message: source, destination and reference, or the text.
    dedupeKey: text("dedupe_key").notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // The API's list of an account's inbound messages, newest first.
    index("inbound_messages_user_idx").on(t.userId, t.id),
    // The inbox: one account's conversations and a thread's messages.
    index("inbound_messages_user_phone_idx").on(t.userId, t.fromPhone, t.id),
    index("inbound_messages_dedupe_idx").on(t.dedupeKey, t.receivedAt),
    // The unread count in the nav.
    index("inbound_messages_unread_idx")
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    index("inbound_messages_unassigned_idx")
      .on(t.id)
      .where(sql`${t.userId} is null`),
  ],
);

/** Parts of a concatenated inbound message, kept until every part has arrived. */
export const inboundParts = sqliteTable(
  "inbound_parts",
  {
    // source|destination|reference|total: the parts of one message share it.
    concatKey: text("concat_key").notNull(),
    sequence: integer("sequence").notNull(),
    total: integer("total").notNull(),
    fromPhone: text("from_phone").notNull(),
    toAddress: text("to_address").notNull(),
    dataCoding: integer("data_coding").notNull(),
    // The part's text bytes as they came: decoded once joined (a character may straddle two parts).
    payload: blob("payload", { mode: "buffer" }).notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.concatKey, t.sequence] }), index("inbound_parts_received_idx").on(t.receivedAt)],
);

/** A stored inbound message whose processing job (keywords, replies) has not finished: see decision 021. */
export const inboundOutbox = sqliteTable(
  "inbound_outbox",
  {
    messageId: integer("message_id")
      .primaryKey()
      .references(() => inboundMessages.id, { onDelete: "cascade" }),
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull(),
    requeues: integer("requeues").notNull().default(0),
  },
  (t) => [index("inbound_outbox_due_idx").on(t.dueAt)],
);
