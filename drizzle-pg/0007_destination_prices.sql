CREATE TABLE "destination_price_version" (
	"id" bigint PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "destination_prices" (
	"prefix" text PRIMARY KEY NOT NULL,
	"credits_per_segment" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "destination_prices_credits_positive" CHECK ("destination_prices"."credits_per_segment" >= 1)
);
