import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

export const contacts = sqliteTable(
  "contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // E.164, validated on the way in (phone.ts).
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    // An IANA zone for quiet hours; null: the number's region decides.
    timeZone: text("time_zone"),
    // False: the contact opted out; group sends skip it.
    status: integer("status", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("contacts_user_phone_unique").on(t.userId, t.phone),
    // The list's order (name A to Z, then id), read straight off the index.
    index("contacts_user_name_idx").on(t.userId, sql`${t.name} collate nocase`, t.id),
  ],
);

export const contactGroups = sqliteTable(
  "contact_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  // One name per user (the CSV import finds groups by name); also the list's order.
  (t) => [uniqueIndex("contact_groups_user_name_unique").on(t.userId, sql`${t.name} collate nocase`)],
);

export const contactGroupMembers = sqliteTable(
  "contact_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => contactGroups.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
  },
  // The fan-out walks a group's members in contact id order on the primary key.
  (t) => [
    primaryKey({ columns: [t.groupId, t.contactId] }),
    index("contact_group_members_contact_idx").on(t.contactId),
  ],
);

/**
 * A CSV file uploaded for import, kept between its preview and its import (or discard) in the
 * database, so any web process can preview and import it (decision 132). Removed after a day.
 */
export const importUploads = sqliteTable(
  "import_uploads",
  {
    // A random UUID made by the server: the preview's `?file=` parameter.
    token: text("token").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  // The user's waiting files (list and quota), and the sweep of old ones.
  (t) => [
    index("import_uploads_user_idx").on(t.userId, t.createdAt),
    index("import_uploads_created_idx").on(t.createdAt),
  ],
);

/** queued: the fan-out job is waiting; running: it is creating messages; done / failed: finished. */
export const GROUP_SEND_STATUSES = ["queued", "running", "done", "failed"] as const;
export type GroupSendStatus = (typeof GROUP_SEND_STATUSES)[number];

/** One message sent to a whole group: the record of the fan-out and what it did. */
export const groupSends = sqliteTable(
  "group_sends",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Kept (null) when the group is deleted; its name stays for the report.
    groupId: integer("group_id").references(() => contactGroups.id, { onDelete: "set null" }),
    groupName: text("group_name").notNull(),
    body: text("body").notNull(),
    // The sender every member's message goes out from; null: the account's default.
    fromAddress: text("from_address"),
    segments: integer("segments").notNull(),
    // The form's one-time key: a double-submitted form starts one send.
    requestKey: text("request_key"),
    // A scheduled group SMS's occurrence (scheduling issue): unique together, so a duplicate tick
    // starts one send. No foreign key: schedules are never deleted but with their user.
    scheduleId: integer("schedule_id"),
    occurrenceAt: integer("occurrence_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: GROUP_SEND_STATUSES }).notNull().default("queued"),
    // Members when the send started.
    total: integer("total").notNull(),
    // The last member (contact id) whose batch is done; a retried job resumes after it.
    cursor: integer("cursor").notNull().default(0),
    // Final counts, written when the fan-out ends (while it runs they are counted).
    queued: integer("queued").notNull().default(0),
    credits: integer("credits").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    // Why the fan-out ended early or failed.
    stopReason: text("stop_reason"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    // When the fan-out had finished and every message had a final status: set once, with group_send.completed.
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("group_sends_user_idx").on(t.userId, t.id),
    index("group_sends_group_idx").on(t.groupId),
    uniqueIndex("group_sends_request_key_unique").on(t.userId, t.requestKey),
    uniqueIndex("group_sends_occurrence_unique")
      .on(t.scheduleId, t.occurrenceAt)
      .where(sql`${t.scheduleId} is not null`),
    index("group_sends_unfinished_idx")
      .on(t.updatedAt)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** A member the fan-out did not send to, and why; once per (send, contact) however often it runs. */
export const groupSendSkips = sqliteTable(
  "group_send_skips",
  {
    groupSendId: integer("group_send_id")
      .notNull()
      .references(() => groupSends.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    reason: text("reason").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupSendId, t.contactId] })],
);

/** The report of one CSV import, shown after it. */
export const contactImports = sqliteTable(
  "contact_imports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    rows: integer("rows").notNull(),
    imported: integer("imported").notNull(),
    updated: integer("updated").notNull(),
    skipped: integer("skipped").notNull(),
    // JSON [{ row, reason }], the first IMPORT_REPORT_ROWS of them.
    skippedRows: text("skipped_rows").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_imports_user_idx").on(t.userId, t.id)],
);
