-- Admin order search ("Search Name, Email or Phone"): substring matches through an FTS5 trigram
-- index instead of scanning every order (drizzle-kit does not model virtual tables).
CREATE VIRTUAL TABLE `orders_search` USING fts5(
	`pickup_name`, `pickup_email`, `pickup_phone`,
	content='orders', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
INSERT INTO `orders_search`(`orders_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `orders_search_insert` AFTER INSERT ON `orders` BEGIN
	INSERT INTO `orders_search`(rowid, `pickup_name`, `pickup_email`, `pickup_phone`)
	VALUES (new.`id`, new.`pickup_name`, new.`pickup_email`, new.`pickup_phone`);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_search_delete` AFTER DELETE ON `orders` BEGIN
	INSERT INTO `orders_search`(`orders_search`, rowid, `pickup_name`, `pickup_email`, `pickup_phone`)
	VALUES ('delete', old.`id`, old.`pickup_name`, old.`pickup_email`, old.`pickup_phone`);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_search_update` AFTER UPDATE OF `pickup_name`, `pickup_email`, `pickup_phone` ON `orders` BEGIN
	INSERT INTO `orders_search`(`orders_search`, rowid, `pickup_name`, `pickup_email`, `pickup_phone`)
	VALUES ('delete', old.`id`, old.`pickup_name`, old.`pickup_email`, old.`pickup_phone`);
	INSERT INTO `orders_search`(rowid, `pickup_name`, `pickup_email`, `pickup_phone`)
	VALUES (new.`id`, new.`pickup_name`, new.`pickup_email`, new.`pickup_phone`);
END;
