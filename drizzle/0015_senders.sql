CREATE TABLE `senders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address` text NOT NULL,
	`kind` text NOT NULL,
	`ton` integer NOT NULL,
	`npi` integer NOT NULL,
	`user_id` integer,
	`is_default` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`rejection_reason` text,
	`decided_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `senders_active_address_unique` ON `senders` (`address`) WHERE "senders"."status" = 'active';--> statement-breakpoint
CREATE INDEX `senders_user_idx` ON `senders` (`user_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `senders_user_default_unique` ON `senders` (`user_id`) WHERE "senders"."is_default" = 1;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `from_address` text;