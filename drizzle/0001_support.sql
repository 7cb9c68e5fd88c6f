CREATE TABLE `support_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`user_id` integer,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`ip` text,
	`status` text DEFAULT 'open' NOT NULL,
	`handled_at` integer,
	`handled_by` integer,
	`mail_status` text NOT NULL,
	`mail_attempts` integer DEFAULT 0 NOT NULL,
	`mail_last_error` text,
	`mail_last_attempt_at` integer,
	`mail_sent_at` integer,
	`mail_message_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`handled_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `support_requests_status_idx` ON `support_requests` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `support_requests_mail_idx` ON `support_requests` (`mail_status`,`id`);--> statement-breakpoint
CREATE INDEX `support_requests_user_idx` ON `support_requests` (`user_id`,`id`);