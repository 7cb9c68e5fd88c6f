CREATE TABLE `keyword_replies` (
	`kind` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `opt_outs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phone` text NOT NULL,
	`scope` text,
	`source` text NOT NULL,
	`user_id` integer,
	`assigned_user_id` integer,
	`keyword` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assigned_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `opt_outs_phone_idx` ON `opt_outs` (`phone`);--> statement-breakpoint
CREATE UNIQUE INDEX `opt_outs_keyword_unique` ON `opt_outs` (`phone`,`scope`) WHERE "opt_outs"."source" = 'keyword';--> statement-breakpoint
CREATE UNIQUE INDEX `opt_outs_account_unique` ON `opt_outs` (`user_id`,`phone`) WHERE "opt_outs"."source" <> 'keyword';--> statement-breakpoint
CREATE INDEX `opt_outs_user_idx` ON `opt_outs` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `opt_outs_assigned_user_idx` ON `opt_outs` (`assigned_user_id`,`id`);