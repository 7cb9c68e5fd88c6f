CREATE TABLE `route_upstreams` (
	`route_id` integer NOT NULL,
	`position` integer NOT NULL,
	`upstream_id` integer,
	`weight` integer,
	`cost_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`route_id`, `position`),
	FOREIGN KEY (`route_id`) REFERENCES `routes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`upstream_id`) REFERENCES `upstreams`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "route_upstreams_weight_positive" CHECK("route_upstreams"."weight" is null or "route_upstreams"."weight" > 0)
);
--> statement-breakpoint
CREATE INDEX `route_upstreams_upstream_idx` ON `route_upstreams` (`upstream_id`);--> statement-breakpoint
CREATE TABLE `routes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `routes_prefix_unique` ON `routes` (`prefix`);--> statement-breakpoint
CREATE TABLE `upstreams` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`url` text,
	`system_id` text,
	`password_ciphertext` text,
	`binds` integer DEFAULT 1 NOT NULL,
	`window_size` integer DEFAULT 10 NOT NULL,
	`tps` integer DEFAULT 100 NOT NULL,
	`source_addr` text,
	`enabled` integer DEFAULT true NOT NULL,
	`failing` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `upstreams_name_unique` ON `upstreams` (`name`);