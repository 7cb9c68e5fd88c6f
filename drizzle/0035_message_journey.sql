CREATE TABLE `sms_submit_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`upstream` text,
	`bind` text,
	`outcome` text NOT NULL,
	`command_status` integer,
	`provider_ids` text,
	`error` text,
	FOREIGN KEY (`message_id`) REFERENCES `sms_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_submit_attempts_message_idx` ON `sms_submit_attempts` (`message_id`,`id`);--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `api_key_id` integer;