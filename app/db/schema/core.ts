import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Times are UTC epoch milliseconds; screens convert to the user's zone.
export const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    fullName: text("full_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["customer", "admin"] })
      .notNull()
      .default("customer"),
    timeZone: text("time_zone").notNull().default("UTC"),
    // Cached sum of the ledger, changed only in the ledger's own transactions.
    creditBalance: integer("credit_balance").notNull().default(0),
    // Sign-up sets false until the link is opened; accounts older than verification count as verified.
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(true),
    // Credits below which one e-mail goes out (null: off); `alerted` until the balance is back up.
    lowBalanceThreshold: integer("low_balance_threshold"),
    lowBalanceAlerted: integer("low_balance_alerted", { mode: "boolean" }).notNull().default(false),
    // Set by an admin: no sign-in, no API, nothing sent or pushed until cleared (decision 104).
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_credit_balance_non_negative", sql`${t.creditBalance} >= 0`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    // Absolute end; the idle end is last_seen_at (or created_at) plus the role's idle lifetime.
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
    // The last time the password was typed again in this session (recent sign-in, with created_at).
    reauthenticatedAt: integer("reauthenticated_at", { mode: "timestamp_ms" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["grant", "debit", "refund", "adjustment", "reversal"] }).notNull(),
    // Signed: grants and refunds are positive, debits negative.
    amount: integer("amount").notNull(),
    // Credits a reversal wanted but the customer had already spent: recorded, never a negative balance.
    shortfall: integer("shortfall").notNull().default(0),
    // Idempotency key: the same business event can never be booked twice.
    key: text("key").notNull(),
    note: text("note"),
    // The admin who booked an operator grant or removal, and why (required for those).
    actorUserId: integer("actor_user_id").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("credit_ledger_key_unique").on(t.key), index("credit_ledger_user_idx").on(t.userId, t.id)],
);

/**
 * The one-time link that creates the first admin when a production start finds none. Only the
 * token's SHA-256 is kept; a new start replaces an unused token.
 */
export const setupTokens = sqliteTable(
  "setup_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("setup_tokens_hash_unique").on(t.tokenHash)],
);
