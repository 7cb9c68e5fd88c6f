CREATE TABLE `sms_message_parts` (
	`message_id` integer NOT NULL,
	`part` integer NOT NULL,
	`provider_id` text NOT NULL,
	`status` text DEFAULT 'submitted' NOT NULL,
	`error` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`message_id`, `part`),
	FOREIGN KEY (`message_id`) REFERENCES `sms_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_message_parts_provider_idx` ON `sms_message_parts` (`provider_id`);--> statement-breakpoint
CREATE TABLE `sms_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`to_phone` text NOT NULL,
	`body` text NOT NULL,
	`encoding` text NOT NULL,
	`segments` integer NOT NULL,
	`credits` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`source` text DEFAULT 'web' NOT NULL,
	`schedule_id` integer,
	`occurrence_at` integer,
	`group_send_id` integer,
	`api_ref` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	`submitted_at` integer,
	`done_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_messages_user_idx` ON `sms_messages` (`user_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_occurrence_unique` ON `sms_messages` (`schedule_id`,`occurrence_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_api_ref_unique` ON `sms_messages` (`user_id`,`api_ref`);--> statement-breakpoint
CREATE INDEX `sms_messages_group_send_idx` ON `sms_messages` (`group_send_id`) WHERE "sms_messages"."group_send_id" is not null;--> statement-breakpoint
CREATE INDEX `sms_messages_submitting_idx` ON `sms_messages` (`updated_at`) WHERE "sms_messages"."status" = 'submitting';--> statement-breakpoint
CREATE TABLE `sms_outbox` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `sms_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_outbox_created_idx` ON `sms_outbox` (`created_at`);--> statement-breakpoint
CREATE TABLE `sms_pending_receipts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider_id` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sms_pending_receipts_provider_idx` ON `sms_pending_receipts` (`provider_id`);--> statement-breakpoint
CREATE INDEX `sms_pending_receipts_received_idx` ON `sms_pending_receipts` (`received_at`);