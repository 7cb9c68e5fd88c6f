import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

export const MAIL_KINDS = [
  "password_reset",
  "email_verification",
  "email_change",
  "email_change_notice",
  "low_balance",
  "webhook_disabled",
  "webhook_deliveries_dropped",
  "account_disabled",
  "account_enabled",
  "two_factor_cleared",
  // A contact or support request, to SUPPORT_EMAIL with the requester as Reply-To.
  "support",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

// pending: waiting for the mail server to accept it; kept: saved only (no SMTP_URL when it was written).
export const OUTBOX_STATUSES = ["pending", "sent", "kept"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** Every e-mail to a person or to the support desk, written in the transaction that causes it; the mail queue delivers it. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Kept when the account is deleted: the outbox is the record of what was sent.
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    // The working link in `text` while it may still be needed; removed from both once sent, used or expired.
    secretLink: text("secret_link"),
    secretExpiresAt: integer("secret_expires_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    messageId: text("message_id"),
    replyToName: text("reply_to_name"),
    replyToAddress: text("reply_to_address"),
    // The request a support mail carries, whose row shows its delivery state in the Support Inbox. No
    // foreign key: the outbox is the record of what was sent and outlives a request that retention deletes.
    supportRequestId: integer("support_request_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("mail_outbox_status_idx").on(t.status, t.id),
    index("mail_outbox_user_idx").on(t.userId, t.id),
    index("mail_outbox_secret_expiry_idx")
      .on(t.secretExpiresAt)
      .where(sql`${t.secretLink} is not null`),
  ],
);
