import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

/** A named message body an account starts its sends from; may hold merge fields ({{name|there}}). */
export const messageTemplates = sqliteTable(
  "message_templates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  // One name per account, also the list's order (A to Z).
  (t) => [uniqueIndex("message_templates_user_name_unique").on(t.userId, sql`${t.name} collate nocase`)],
);
