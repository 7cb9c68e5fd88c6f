import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "#app/db/schema/core.ts";

/**
 * A user's TOTP secret, sealed like API keys (AES-256-GCM under API_KEY_SECRET). `enabled_at` is
 * null while enrolment waits for the first code; `last_step` refuses a code used once from being
 * used again in its 30-second window.
 */
export const twoFactor = sqliteTable("two_factor", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretCiphertext: text("secret_ciphertext").notNull(),
  enabledAt: integer("enabled_at", { mode: "timestamp_ms" }),
  lastStep: integer("last_step"),
  createdAt: createdAt(),
});

/** Ten single-use codes per user, kept only as SHA-256 (docs/decisions/071-two-factor-and-recovery-codes.md). */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId), uniqueIndex("recovery_codes_hash_unique").on(t.codeHash)],
);

/**
 * Sign-in attempts per e-mail address (whether or not an account uses it), for the account-wide
 * growing wait (docs/decisions/108-login-waits-per-account.md). Times in ms of the app's clock.
 */
export const loginFailures = sqliteTable(
  "login_failures",
  {
    email: text("email").primaryKey(),
    failures: integer("failures").notNull(),
    lastAttemptAt: integer("last_attempt_at").notNull(),
    waitUntil: integer("wait_until").notNull(),
  },
  (t) => [index("login_failures_last_attempt_idx").on(t.lastAttemptAt)],
);
