import { index, integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { users } from "#app/db/schema/core.ts";

/** The rollup's time bucket: 15 minutes, so every zone's local midnight (+5:45 too) is a bucket edge. */
export const ROLLUP_BUCKET_MS = 15 * 60_000;

/**
 * Counts per account per 15-minute UTC bucket, so a dashboard sums a few thousand rows instead of
 * grouping millions of messages. Kept in the transaction of the write it counts: by one upsert per
 * batch from the code that writes messages and ledger entries (app/db/rollup-counts.server.ts), by a
 * trigger for inbound_messages: see docs/decisions/045-message-rollup.md. A message counts in the bucket it was
 * created in, under its current outcome; retention deleting old messages leaves their counts.
 */
export const messageRollup = sqliteTable(
  "message_rollup",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Epoch ms of the bucket's start (a multiple of ROLLUP_BUCKET_MS).
    bucket: integer("bucket").notNull(),
    // Sent messages by outcome: queued, submitting, submitted or unknown; delivered; undelivered,
    // expired, rejected or failed.
    pending: integer("pending").notNull().default(0),
    delivered: integer("delivered").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    inbound: integer("inbound").notNull().default(0),
    // Credits spent: message debits less their refunds, in the bucket they were booked in.
    credits: integer("credits").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bucket] }),
    // The admin overview: every account's rows for a period.
    index("message_rollup_bucket_idx").on(t.bucket),
  ],
);
