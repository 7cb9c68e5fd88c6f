-- message_rollup without a hot row (decision 131): on PostgreSQL every write appends its changes
-- here, summed per account and bucket, instead of updating the bucket's row, which each send, status
-- change and ledger entry of one account would otherwise lock (READ COMMITTED) or refuse each other on
-- (SERIALIZABLE). Readers add these rows to message_rollup's; the SMS reconciler folds them in.
CREATE TABLE "message_rollup_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"user_id" bigint NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"bucket" bigint NOT NULL,
	"pending" bigint DEFAULT 0 NOT NULL,
	"delivered" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"inbound" bigint DEFAULT 0 NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "message_rollup_changes_user_bucket_idx" ON "message_rollup_changes" ("user_id", "bucket");
--> statement-breakpoint
CREATE INDEX "message_rollup_changes_bucket_idx" ON "message_rollup_changes" ("bucket");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "message_rollup_inbound_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "message_rollup_changes" ("user_id", "bucket", "inbound")
	SELECT "user_id", "received_at" - "received_at" % 900000, count(*)
	FROM "inserted" WHERE "user_id" IS NOT NULL GROUP BY 1, 2;
	RETURN NULL;
END
$$;
