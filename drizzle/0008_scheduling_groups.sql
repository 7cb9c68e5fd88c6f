PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_schedules` (
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
	FOREIGN KEY (`group_id`) REFERENCES `contact_groups`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "schedules_target" CHECK(("__new_schedules"."target_kind" = 'phone' and "__new_schedules"."to_phone" is not null) or "__new_schedules"."target_kind" = 'group')
);
--> statement-breakpoint
INSERT INTO `__new_schedules`("id", "user_id", "target_kind", "to_phone", "group_id", "body", "repeat", "time_zone", "first_send_at", "ends_at", "next_run_at", "status", "created_at", "updated_at", "finished_at") SELECT "id", "user_id", "target_kind", "to_phone", "group_id", "body", "repeat", "time_zone", "first_send_at", "ends_at", "next_run_at", "status", "created_at", "updated_at", "finished_at" FROM `schedules`;--> statement-breakpoint
DROP TABLE `schedules`;--> statement-breakpoint
ALTER TABLE `__new_schedules` RENAME TO `schedules`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `schedules_user_idx` ON `schedules` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `schedules_due_idx` ON `schedules` (`next_run_at`) WHERE "schedules"."status" = 'active';--> statement-breakpoint
CREATE INDEX `schedules_group_idx` ON `schedules` (`group_id`) WHERE "schedules"."group_id" is not null;--> statement-breakpoint
ALTER TABLE `group_sends` ADD `schedule_id` integer;--> statement-breakpoint
ALTER TABLE `group_sends` ADD `occurrence_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `group_sends_occurrence_unique` ON `group_sends` (`schedule_id`,`occurrence_at`) WHERE "group_sends"."schedule_id" is not null;