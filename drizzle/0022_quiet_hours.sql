CREATE TABLE `quiet_hours` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`start_minute` integer NOT NULL,
	`end_minute` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `contacts` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `deferred_until` integer;