DROP INDEX `sms_messages_occurrence_unique`;--> statement-breakpoint
DROP INDEX `sms_messages_api_ref_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_occurrence_unique` ON `sms_messages` (`schedule_id`,`occurrence_at`) WHERE "sms_messages"."schedule_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_api_ref_unique` ON `sms_messages` (`user_id`,`api_ref`) WHERE "sms_messages"."api_ref" is not null;