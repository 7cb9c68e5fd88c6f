CREATE TABLE `schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`target_kind` text NOT NULL,
	`to_phone` text,
	`group_id` integer,
	`body` text NOT NULL,
	`repeat` text NOT NULL,
	`time_zone` text NOT NULL,
	`first_send_at` integer NOT NULL,
	`ends_at` integer,
	`next_run_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "schedules_target" CHECK(("schedules"."target_kind" = 'phone' and "schedules"."to_phone" is not null) or ("schedules"."target_kind" = 'group' and "schedules"."group_id" is not null))
);
--> statement-breakpoint
CREATE INDEX `schedules_user_idx` ON `schedules` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `schedules_due_idx` ON `schedules` (`next_run_at`) WHERE "schedules"."status" = 'active';--> statement-breakpoint
CREATE INDEX `schedules_group_idx` ON `schedules` (`group_id`) WHERE "schedules"."group_id" is not null;