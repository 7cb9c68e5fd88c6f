ALTER TABLE `group_sends` ADD `from_address` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `from_address` text;