CREATE TABLE `inbound_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`from_phone` text NOT NULL,
	`to_address` text NOT NULL,
	`body` text NOT NULL,
	`encoding` text NOT NULL,
	`parts` integer NOT NULL,
	`dedupe_key` text NOT NULL,
	`received_at` integer NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inbound_messages_user_idx` ON `inbound_messages` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_messages_user_phone_idx` ON `inbound_messages` (`user_id`,`from_phone`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_messages_dedupe_idx` ON `inbound_messages` (`dedupe_key`,`received_at`);--> statement-breakpoint
CREATE INDEX `inbound_messages_unread_idx` ON `inbound_messages` (`user_id`) WHERE "inbound_messages"."read_at" is null;--> statement-breakpoint
CREATE INDEX `inbound_messages_unassigned_idx` ON `inbound_messages` (`id`) WHERE "inbound_messages"."user_id" is null;--> statement-breakpoint
CREATE TABLE `inbound_outbox` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`due_at` integer NOT NULL,
	`requeues` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `inbound_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inbound_outbox_due_idx` ON `inbound_outbox` (`due_at`);--> statement-breakpoint
CREATE TABLE `inbound_parts` (
	`concat_key` text NOT NULL,
	`sequence` integer NOT NULL,
	`total` integer NOT NULL,
	`from_phone` text NOT NULL,
	`to_address` text NOT NULL,
	`data_coding` integer NOT NULL,
	`payload` blob NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`concat_key`, `sequence`)
);
--> statement-breakpoint
CREATE INDEX `inbound_parts_received_idx` ON `inbound_parts` (`received_at`);--> statement-breakpoint
CREATE INDEX `sms_messages_to_phone_idx` ON `sms_messages` (`to_phone`,`created_at`);