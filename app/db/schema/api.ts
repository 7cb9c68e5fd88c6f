import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

/**
 * A user's API keys, each named and limited to its scopes (space-separated; keys made before
 * scopes existed have all of them: docs/decisions/070-api-key-scopes.md). The key itself is never
 * stored: `key_hash` (SHA-256) finds it, and `key_ciphertext` (AES-256-GCM under API_KEY_SECRET)
 * lets its owner see it again, so a copy of the database alone gives no usable key.
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
    name: text("name").notNull().default("API key"),
    scopes: text("scopes").notNull().default("messages:send messages:read contacts:manage"),
    createdAt: createdAt(),
    // Written at most once a minute per key and process, so the hot path stays read-only.
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("api_keys_user_idx").on(t.userId, t.id), uniqueIndex("api_keys_hash_unique").on(t.keyHash)],
);
