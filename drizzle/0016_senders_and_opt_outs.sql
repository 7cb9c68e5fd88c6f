CREATE TABLE `keyword_replies` (
	`kind` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `opt_outs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phone` text NOT NULL,
	`scope` text,
	`source` text NOT NULL,
	`user_id` integer,
	`assigned_user_id` integer,
	`keyword` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assigned_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `opt_outs_phone_idx` ON `opt_outs` (`phone`);--> statement-breakpoint
CREATE UNIQUE INDEX `opt_outs_keyword_unique` ON `opt_outs` (`phone`,`scope`) WHERE "opt_outs"."source" = 'keyword';--> statement-breakpoint
CREATE UNIQUE INDEX `opt_outs_account_unique` ON `opt_outs` (`user_id`,`phone`) WHERE "opt_outs"."source" <> 'keyword';--> statement-breakpoint
CREATE INDEX `opt_outs_user_idx` ON `opt_outs` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `opt_outs_assigned_user_idx` ON `opt_outs` (`assigned_user_id`,`id`);--> statement-breakpoint
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
ALTER TABLE `group_sends` ADD `from_address` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `from_address` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `from_address` text;