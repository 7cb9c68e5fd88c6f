CREATE INDEX `sms_messages_user_phone_idx` ON `sms_messages` (`user_id`,`to_phone`);--> statement-breakpoint
CREATE INDEX `sms_messages_user_created_idx` ON `sms_messages` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sms_messages_user_group_send_idx` ON `sms_messages` (`user_id`,`group_send_id`) WHERE "sms_messages"."group_send_id" is not null;