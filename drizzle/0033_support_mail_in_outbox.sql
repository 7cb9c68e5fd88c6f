ALTER TABLE `mail_outbox` ADD `reply_to_name` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `reply_to_address` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `support_request_id` integer;--> statement-breakpoint
-- Hand-written (keep when regenerating): support requests whose e-mail has not gone out move into the
-- mail outbox, composed as app/modules/support/mail.server.ts composes them, with their attempts so far
-- and the request's created_at (the Message-ID stays the one earlier attempts used). The recipient is
-- resolved when the mail is sent (SUPPORT_EMAIL, which SQL cannot read), as it was before.
INSERT INTO `mail_outbox` (`user_id`, `kind`, `to`, `subject`, `text`, `status`, `attempts`, `last_error`, `last_attempt_at`, `reply_to_name`, `reply_to_address`, `support_request_id`, `created_at`)
SELECT NULL, 'support', 'SUPPORT_EMAIL',
  '[' || CASE `source` WHEN 'contact' THEN 'Contact' ELSE 'Support' END || ' #' || `id` || '] ' || `subject`,
  CASE `source` WHEN 'contact' THEN 'Contact' ELSE 'Support' END || ' request #' || `id` || ' from the '
    || CASE `source` WHEN 'contact' THEN 'public contact form' ELSE 'signed-in support form' END || '.' || char(10) || char(10)
    || 'From: ' || `name` || ' <' || `email` || '>' || char(10)
    || CASE WHEN `user_id` IS NULL THEN '' ELSE 'Account: user #' || `user_id` || char(10) END
    || 'Received: ' || strftime('%Y-%m-%d %H:%M', `created_at` / 1000, 'unixepoch') || ' UTC' || char(10)
    || 'Subject: ' || `subject` || char(10) || char(10)
    || `message` || char(10) || char(10)
    || '--' || char(10)
    || 'Reply to this e-mail to answer the sender.' || char(10)
    || 'Support Inbox: /admin/support?id=' || `id`,
  'pending', `mail_attempts`, `mail_last_error`, `mail_last_attempt_at`, `name`, `email`, `id`, `created_at`
FROM `support_requests` WHERE `mail_status` = 'pending' ORDER BY `id`;
