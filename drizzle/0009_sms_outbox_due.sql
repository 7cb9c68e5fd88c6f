-- The outbox row's time is when the message is next due (a retry's backoff moves it), not when it was made.
ALTER TABLE `sms_outbox` RENAME COLUMN `created_at` TO `due_at`;--> statement-breakpoint
ALTER TABLE `sms_outbox` ADD `requeues` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `sms_outbox_created_idx`;--> statement-breakpoint
CREATE INDEX `sms_outbox_due_idx` ON `sms_outbox` (`due_at`);
