-- What drizzle-kit does not model, as drizzle/ adds it by hand (decision 126).
-- Admin order search: SQLite's FTS5 trigram table `orders_search` (drizzle/0004) over the same three
-- columns becomes a trigram GIN index, which serves `ilike '%term%'` on any of them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "orders_search_trgm" ON "orders" USING gin (
	"pickup_name" gin_trgm_ops, "pickup_email" gin_trgm_ops, "pickup_phone" gin_trgm_ops
);
--> statement-breakpoint
-- The one rollup trigger left after drizzle/0032 (decision 045's amendment): an inbound message with an
-- owner counts once in its account's 15-minute bucket. Per statement over the inserted rows, summed
-- per account and bucket first, so a many-row insert costs one statement.
CREATE FUNCTION "message_rollup_inbound_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "message_rollup" ("user_id", "bucket", "inbound")
	SELECT "user_id", "received_at" - "received_at" % 900000, count(*)
	FROM "inserted" WHERE "user_id" IS NOT NULL GROUP BY 1, 2
	ON CONFLICT ("user_id", "bucket") DO UPDATE SET "inbound" = "message_rollup"."inbound" + excluded."inbound";
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "message_rollup_inbound_insert" AFTER INSERT ON "inbound_messages"
REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "message_rollup_inbound_insert"();
