-- The dashboards' counts (message_rollup, docs/decisions/045-message-rollup.md), kept by triggers in
-- the transaction of every write they count, then backfilled from the rows already there.
-- A message counts in its creation's 15-minute bucket under its outcome: delivered; failed
-- (undelivered, expired, rejected, failed); pending (queued, submitting, submitted, unknown). A
-- status change within one outcome (queued -> submitting -> submitted) writes nothing.
CREATE TRIGGER `message_rollup_sms_insert` AFTER INSERT ON `sms_messages` BEGIN
	INSERT INTO `message_rollup` (`user_id`, `bucket`, `pending`, `delivered`, `failed`)
	VALUES (new.`user_id`, new.`created_at` - new.`created_at` % 900000,
		new.`status` NOT IN ('delivered', 'undelivered', 'expired', 'rejected', 'failed'),
		new.`status` = 'delivered',
		new.`status` IN ('undelivered', 'expired', 'rejected', 'failed'))
	ON CONFLICT DO UPDATE SET `pending` = `pending` + excluded.`pending`,
		`delivered` = `delivered` + excluded.`delivered`, `failed` = `failed` + excluded.`failed`;
END;
--> statement-breakpoint
CREATE TRIGGER `message_rollup_sms_status` AFTER UPDATE OF `status` ON `sms_messages`
WHEN (old.`status` = 'delivered') != (new.`status` = 'delivered')
	OR (old.`status` IN ('undelivered', 'expired', 'rejected', 'failed')) != (new.`status` IN ('undelivered', 'expired', 'rejected', 'failed'))
BEGIN
	UPDATE `message_rollup` SET
		`pending` = `pending` + (new.`status` NOT IN ('delivered', 'undelivered', 'expired', 'rejected', 'failed'))
			- (old.`status` NOT IN ('delivered', 'undelivered', 'expired', 'rejected', 'failed')),
		`delivered` = `delivered` + (new.`status` = 'delivered') - (old.`status` = 'delivered'),
		`failed` = `failed` + (new.`status` IN ('undelivered', 'expired', 'rejected', 'failed'))
			- (old.`status` IN ('undelivered', 'expired', 'rejected', 'failed'))
	WHERE `user_id` = new.`user_id` AND `bucket` = new.`created_at` - new.`created_at` % 900000;
END;
--> statement-breakpoint
CREATE TRIGGER `message_rollup_inbound_insert` AFTER INSERT ON `inbound_messages` WHEN new.`user_id` IS NOT NULL BEGIN
	INSERT INTO `message_rollup` (`user_id`, `bucket`, `inbound`)
	VALUES (new.`user_id`, new.`received_at` - new.`received_at` % 900000, 1)
	ON CONFLICT DO UPDATE SET `inbound` = `inbound` + 1;
END;
--> statement-breakpoint
-- Message debits are negative and their refunds positive: spent is their negated sum.
CREATE TRIGGER `message_rollup_credits_insert` AFTER INSERT ON `credit_ledger` WHEN new.`kind` IN ('debit', 'refund') BEGIN
	INSERT INTO `message_rollup` (`user_id`, `bucket`, `credits`)
	VALUES (new.`user_id`, new.`created_at` - new.`created_at` % 900000, -new.`amount`)
	ON CONFLICT DO UPDATE SET `credits` = `credits` + excluded.`credits`;
END;
--> statement-breakpoint
INSERT INTO `message_rollup` (`user_id`, `bucket`, `pending`, `delivered`, `failed`)
SELECT `user_id`, `created_at` - `created_at` % 900000,
	sum(`status` NOT IN ('delivered', 'undelivered', 'expired', 'rejected', 'failed')),
	sum(`status` = 'delivered'),
	sum(`status` IN ('undelivered', 'expired', 'rejected', 'failed'))
FROM `sms_messages` WHERE true GROUP BY 1, 2
ON CONFLICT DO UPDATE SET `pending` = `pending` + excluded.`pending`,
	`delivered` = `delivered` + excluded.`delivered`, `failed` = `failed` + excluded.`failed`;
--> statement-breakpoint
INSERT INTO `message_rollup` (`user_id`, `bucket`, `inbound`)
SELECT `user_id`, `received_at` - `received_at` % 900000, count(*)
FROM `inbound_messages` WHERE `user_id` IS NOT NULL GROUP BY 1, 2
ON CONFLICT DO UPDATE SET `inbound` = `inbound` + excluded.`inbound`;
--> statement-breakpoint
INSERT INTO `message_rollup` (`user_id`, `bucket`, `credits`)
SELECT `user_id`, `created_at` - `created_at` % 900000, -sum(`amount`)
FROM `credit_ledger` WHERE `kind` IN ('debit', 'refund') GROUP BY 1, 2
ON CONFLICT DO UPDATE SET `credits` = `credits` + excluded.`credits`;
