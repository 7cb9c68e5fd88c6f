ALTER TABLE `credit_ledger` ADD `shortfall` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `credit_ledger` ADD `actor_user_id` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `credit_ledger` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `credits_shortfall` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `checkout_session_ref` text;