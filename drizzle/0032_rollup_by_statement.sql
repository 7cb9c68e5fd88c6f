-- message_rollup is kept by the writes it counts, one upsert per batch (app/modules/insight/rollup-counts.server.ts):
-- these per-row triggers cost a write per message (docs/decisions/045-message-rollup.md, amendment of 2026-11-27).
-- The inbound trigger stays: inbound messages are stored one row per statement anyway.
DROP TRIGGER IF EXISTS `message_rollup_sms_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `message_rollup_sms_status`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `message_rollup_credits_insert`;
