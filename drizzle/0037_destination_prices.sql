CREATE TABLE `destination_price_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `destination_prices` (
	`prefix` text PRIMARY KEY NOT NULL,
	`credits_per_segment` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "destination_prices_credits_positive" CHECK("destination_prices"."credits_per_segment" >= 1)
);
