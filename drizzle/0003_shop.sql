CREATE TABLE `offline_charges` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`decline_code` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `offline_charges_order_idx` ON `offline_charges` (`order_id`,`status`);--> statement-breakpoint
ALTER TABLE `orders` ADD `provider_ref` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_error` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `credits_reversed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `cancelled_at` integer;--> statement-breakpoint
CREATE INDEX `orders_created_idx` ON `orders` (`created_at`);