import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { KEYWORD_REPLY_KINDS, OPT_OUT_SOURCES } from "#app/db/enums.ts";
import { createdAt, users } from "#app/db/schema/core.ts";

/**
 * A phone that must not be sent to. A keyword opt-out (the phone texted STOP) is scoped to the sender
 * it wrote to: `scope` is that sender's address, or "" for the gateway's shared default sender, which
 * protects the phone from every account sending from it. A manual or CSV opt-out (scope null) is the
 * owning account's own list and covers its sends from any sender.
 */
export const optOuts = sqliteTable(
  "opt_outs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // E.164.
    phone: text("phone").notNull(),
    scope: text("scope"),
    source: text("source", { enum: OPT_OUT_SOURCES }).notNull(),
    // Manual / CSV: the owning account (null for keyword opt-outs).
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    // Keyword: the account the STOP was assigned to, which sees it in its list; the opt-out outlives it.
    assignedUserId: integer("assigned_user_id").references(() => users.id, { onDelete: "set null" }),
    // The word the phone sent (keyword opt-outs).
    keyword: text("keyword"),
    createdAt: createdAt(),
  },
  (t) => [
    // Every send looks a phone up here: one index probe.
    index("opt_outs_phone_idx").on(t.phone),
    uniqueIndex("opt_outs_keyword_unique")
      .on(t.phone, t.scope)
      .where(sql`${t.source} = 'keyword'`),
    uniqueIndex("opt_outs_account_unique")
      .on(t.userId, t.phone)
      .where(sql`${t.source} <> 'keyword'`),
    index("opt_outs_user_idx").on(t.userId, t.id),
    index("opt_outs_assigned_user_idx").on(t.assignedUserId, t.id),
  ],
);

/** The admin's wording of the automatic replies; a kind without a row uses the default text. */
export const keywordReplies = sqliteTable("keyword_replies", {
  kind: text("kind", { enum: KEYWORD_REPLY_KINDS }).primaryKey(),
  body: text("body").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
