ALTER TABLE `mail_outbox` ADD `secret_link` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `secret_expires_at` integer;--> statement-breakpoint
CREATE INDEX `mail_outbox_secret_expiry_idx` ON `mail_outbox` (`secret_expires_at`) WHERE "mail_outbox"."secret_link" is not null;