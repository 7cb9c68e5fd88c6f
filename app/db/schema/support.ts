import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

export const SUPPORT_SOURCES = ["contact", "support"] as const;
export type SupportSource = (typeof SUPPORT_SOURCES)[number];

// pending: waiting for the mail server to accept it; not_configured: saved only (no SMTP_URL).
export const MAIL_STATUSES = ["pending", "sent", "not_configured"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export const SUPPORT_STATUSES = ["open", "handled"] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** Every request from the public contact form and the signed-in support form: the record, before any e-mail. */
export const supportRequests = sqliteTable(
  "support_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    source: text("source", { enum: SUPPORT_SOURCES }).notNull(),
    // Kept when the account is deleted: the request stays readable with its name and e-mail.
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    ip: text("ip"),
    status: text("status", { enum: SUPPORT_STATUSES }).notNull().default("open"),
    handledAt: integer("handled_at", { mode: "timestamp_ms" }),
    handledBy: integer("handled_by").references(() => users.id, { onDelete: "set null" }),
    mailStatus: text("mail_status", { enum: MAIL_STATUSES }).notNull(),
    mailAttempts: integer("mail_attempts").notNull().default(0),
    mailLastError: text("mail_last_error"),
    mailLastAttemptAt: integer("mail_last_attempt_at", { mode: "timestamp_ms" }),
    mailSentAt: integer("mail_sent_at", { mode: "timestamp_ms" }),
    mailMessageId: text("mail_message_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("support_requests_status_idx").on(t.status, t.id),
    index("support_requests_mail_idx").on(t.mailStatus, t.id),
    index("support_requests_user_idx").on(t.userId, t.id),
  ],
);
