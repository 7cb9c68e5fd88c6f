import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

/**
 * One API key per user. The key itself is never stored: `key_hash` (SHA-256) finds it, and
 * `key_ciphertext` (AES-256-GCM under API_KEY_SECRET) lets its owner see it again, so a copy of
 * the database alone gives no usable key.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    keyHash: text("key_hash").notNull(),
    keyCiphertext: text("key_ciphertext").notNull(),
    createdAt: createdAt(),
    // Written at most once a minute per key and process, so the hot path stays read-only.
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("api_keys_user_unique").on(t.userId), uniqueIndex("api_keys_hash_unique").on(t.keyHash)],
);
