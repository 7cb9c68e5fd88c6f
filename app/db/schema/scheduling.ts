import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { REPEATS } from "#app/db/enums.ts";
import { contactGroups } from "#app/db/schema/contacts.ts";
import { createdAt, users } from "#app/db/schema/core.ts";

/** active: occurrences to come; completed: the last one has run; cancelled: stopped by its owner. */
export const SCHEDULE_STATUSES = ["active", "completed", "cancelled"] as const;
/** Whom each occurrence goes to: one number, or the members of a group at that moment. */
export const SCHEDULE_TARGETS = ["phone", "group"] as const;

/** The record of every scheduled SMS; BullMQ's job schedulers are rebuilt from it. */
export const schedules = sqliteTable(
  "schedules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    targetKind: text("target_kind", { enum: SCHEDULE_TARGETS }).notNull(),
    // E.164, for a phone target.
    toPhone: text("to_phone"),
    // For a group target. Deleting the group cancels its schedules first (deleteGroup), then the
    // key clears it, so a cancelled schedule outlives its group in the list ("a deleted group").
    groupId: integer("group_id").references(() => contactGroups.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    // The sender each occurrence goes out from; null: the account's default at that moment.
    fromAddress: text("from_address"),
    repeat: text("repeat", { enum: REPEATS }).notNull(),
    // IANA zone the rule lives in: occurrences keep the first send's wall-clock time there.
    timeZone: text("time_zone").notNull(),
    firstSendAt: integer("first_send_at", { mode: "timestamp_ms" }).notNull(),
    // Exclusive: the end of the end date in time_zone; null repeats until cancelled.
    endsAt: integer("ends_at", { mode: "timestamp_ms" }),
    // The next occurrence not handled yet; null once completed or cancelled.
    nextRunAt: integer("next_run_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: SCHEDULE_STATUSES }).notNull().default("active"),
    // The REST API's Idempotency-Key of a scheduled message: a retried request finds the first schedule.
    apiRef: text("api_ref"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    // When it was completed or cancelled.
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("schedules_user_idx").on(t.userId, t.id),
    uniqueIndex("schedules_api_ref_unique").on(t.userId, t.apiRef),
    // The catch-up sweep's look-up of occurrences that are due and not handled.
    index("schedules_due_idx")
      .on(t.nextRunAt)
      .where(sql`${t.status} = 'active'`),
    index("schedules_group_idx")
      .on(t.groupId)
      .where(sql`${t.groupId} is not null`),
    // A group target may lose its group_id (the group was deleted); the runner cancels such a schedule.
    check(
      "schedules_target",
      sql`(${t.targetKind} = 'phone' and ${t.toPhone} is not null) or ${t.targetKind} = 'group'`,
    ),
  ],
);
