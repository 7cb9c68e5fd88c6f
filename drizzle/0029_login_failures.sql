CREATE TABLE `login_failures` (
	`email` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`last_attempt_at` integer NOT NULL,
	`wait_until` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_last_attempt_idx` ON `login_failures` (`last_attempt_at`);