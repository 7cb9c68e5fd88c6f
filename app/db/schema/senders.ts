import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SENDER_KINDS, SENDER_STATUSES } from "#app/db/enums.ts";
import { createdAt, users } from "#app/db/schema/core.ts";

/**
 * A sender identity messages go out from (and inbound messages are addressed to). Admins create
 * active ones; a customer's request for an alphanumeric ID is a `pending` row owned by that customer
 * until an admin approves (`active`) or rejects it (`rejected`, with the reason shown to them).
 * Long numbers are stored in E.164 with "+", short codes and alphanumeric IDs as typed.
 */
export const senders = sqliteTable(
  "senders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    address: text("address").notNull(),
    kind: text("kind", { enum: SENDER_KINDS }).notNull(),
    // SMPP type of number and numbering plan used as source_addr_ton / source_addr_npi.
    ton: integer("ton").notNull(),
    npi: integer("npi").notNull(),
    // The account it is assigned to; null: not assigned (nobody can send from it).
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    // The account's default From; at most one per account (index below).
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: SENDER_STATUSES }).notNull().default("active"),
    rejectionReason: text("rejection_reason"),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    // One live identity per address: inbound messages and sends find it by address.
    uniqueIndex("senders_active_address_unique")
      .on(t.address)
      .where(sql`${t.status} = 'active'`),
    index("senders_user_idx").on(t.userId, t.status),
    uniqueIndex("senders_user_default_unique")
      .on(t.userId)
      .where(sql`${t.isDefault} = 1`),
  ],
);
