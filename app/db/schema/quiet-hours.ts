import { integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { users } from "#app/db/schema/core.ts";

/**
 * An account's quiet hours: group sends and schedules (and single sends, unless overridden) that
 * would reach a recipient between start and end, in the recipient's local time, wait until the end.
 * Minutes after local midnight; start > end wraps midnight (21:00-08:00). No row: never set.
 */
export const quietHours = sqliteTable("quiet_hours", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  startMinute: integer("start_minute").notNull(),
  endMinute: integer("end_minute").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
