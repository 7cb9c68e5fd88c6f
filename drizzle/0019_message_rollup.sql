CREATE TABLE `message_rollup` (
	`user_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`pending` integer DEFAULT 0 NOT NULL,
	`delivered` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`inbound` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `bucket`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_rollup_bucket_idx` ON `message_rollup` (`bucket`);