import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * What a segment costs, in credits, by destination prefix (E.164 digits without "+", or "*" for
 * every destination no prefix matches); the longest prefix matching a number wins. No row for a
 * number (and no "*"): 1 credit per segment.
 */
export const destinationPrices = sqliteTable(
  "destination_prices",
  {
    prefix: text("prefix").primaryKey(),
    creditsPerSegment: integer("credits_per_segment").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [check("destination_prices_credits_positive", sql`${t.creditsPerSegment} >= 1`)],
);

/**
 * The price list's version, one row (id 1), raised in the transaction of every change: each
 * process keeps the list in memory and reloads it when the version it reads has moved.
 */
export const destinationPriceVersion = sqliteTable("destination_price_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});
