CREATE TABLE `contact_group_members` (
	`group_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `contact_id`),
	FOREIGN KEY (`group_id`) REFERENCES `contact_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_group_members_contact_idx` ON `contact_group_members` (`contact_id`);--> statement-breakpoint
CREATE TABLE `contact_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_groups_user_name_unique` ON `contact_groups` (`user_id`,"name" collate nocase);--> statement-breakpoint
CREATE TABLE `contact_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`file_name` text NOT NULL,
	`rows` integer NOT NULL,
	`imported` integer NOT NULL,
	`updated` integer NOT NULL,
	`skipped` integer NOT NULL,
	`skipped_rows` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_imports_user_idx` ON `contact_imports` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`phone` text NOT NULL,
	`email` text NOT NULL,
	`status` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_user_phone_unique` ON `contacts` (`user_id`,`phone`);--> statement-breakpoint
CREATE INDEX `contacts_user_name_idx` ON `contacts` (`user_id`,"name" collate nocase,`id`);--> statement-breakpoint
CREATE TABLE `group_send_skips` (
	`group_send_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`name` text NOT NULL,
	`phone` text NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`group_send_id`, `contact_id`),
	FOREIGN KEY (`group_send_id`) REFERENCES `group_sends`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `group_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`group_id` integer,
	`group_name` text NOT NULL,
	`body` text NOT NULL,
	`segments` integer NOT NULL,
	`request_key` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`total` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`stop_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `contact_groups`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `group_sends_user_idx` ON `group_sends` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `group_sends_group_idx` ON `group_sends` (`group_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `group_sends_request_key_unique` ON `group_sends` (`user_id`,`request_key`);--> statement-breakpoint
CREATE INDEX `group_sends_unfinished_idx` ON `group_sends` (`updated_at`) WHERE "group_sends"."status" in ('queued', 'running');--> statement-breakpoint
DROP INDEX `sms_messages_group_send_idx`;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `contact_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_group_send_contact_unique` ON `sms_messages` (`group_send_id`,`contact_id`) WHERE "sms_messages"."group_send_id" is not null;