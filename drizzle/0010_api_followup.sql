ALTER TABLE `schedules` ADD `api_ref` text;--> statement-breakpoint
CREATE UNIQUE INDEX `schedules_api_ref_unique` ON `schedules` (`user_id`,`api_ref`);