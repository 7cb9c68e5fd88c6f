CREATE TABLE `import_uploads` (
	`token` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`file_name` text NOT NULL,
	`bytes` blob NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_uploads_user_idx` ON `import_uploads` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `import_uploads_created_idx` ON `import_uploads` (`created_at`);--> statement-breakpoint
CREATE TABLE `stored_images` (
	`name` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`created_at` integer NOT NULL
);
