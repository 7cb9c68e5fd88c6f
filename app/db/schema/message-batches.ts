import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

/**
 * One row per batch send made with an idempotency key: a retry with the same key finds the first
 * outcome here (written in the batch's own transaction) and queues and charges nothing more.
 */
export const messageBatches = sqliteTable(
  "message_batches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    // SHA-256 of the request as read: the same key with another request is a conflict.
    fingerprint: text("fingerprint").notNull(),
    // The per-item outcomes as JSON (BatchOutcome[]), answered again to a retry.
    outcomes: text("outcomes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("message_batches_key_unique").on(t.userId, t.idempotencyKey)],
);
