import { z } from "zod";

// Job payloads are versioned so a worker can refuse (not misread) a payload from a newer producer.
export const HousekeepingPayload = z.object({ v: z.literal(1) });
export type HousekeepingPayload = z.infer<typeof HousekeepingPayload>;

/** E-mail one saved support request to SUPPORT_EMAIL; the row, not the job, is the record. */
export const SupportMailPayload = z.object({ v: z.literal(1), requestId: z.number().int().positive() });
export type SupportMailPayload = z.infer<typeof SupportMailPayload>;

/** Deliver one mail_outbox row; the row, not the job, is the record. */
export const MailPayload = z.object({ v: z.literal(1), mailId: z.number().int().positive() });
export type MailPayload = z.infer<typeof MailPayload>;
export const MailReconcilePayload = z.object({ v: z.literal(1) });

/** The periodic sweep that re-enqueues support requests whose e-mail has not gone out. */
export const SupportMailReconcilePayload = z.object({ v: z.literal(1) });
/**
 * Messages to hand to the SMSC; everything else is read from SQLite, the record. Version 2 carries a
 * batch (the worker claims, submits and records it together); version 1, one message, is still read.
 */
export const SmsSendPayload = z.union([
  z.object({ v: z.literal(2), messageIds: z.array(z.number().int().positive()).min(1) }),
  z.object({ v: z.literal(1), messageId: z.number().int().positive() }),
]);
export type SmsSendPayload = z.infer<typeof SmsSendPayload>;

export function messageIdsOf(payload: SmsSendPayload): number[] {
  return payload.v === 2 ? payload.messageIds : [payload.messageId];
}

export const SmsReconcilePayload = z.object({ v: z.literal(1) });
export type SmsReconcilePayload = z.infer<typeof SmsReconcilePayload>;
export const DemoPurgePayload = z.object({ v: z.literal(1) });
export type DemoPurgePayload = z.infer<typeof DemoPurgePayload>;

/** A schedule's occurrence; its time is the job scheduler's iteration time (job.opts.prevMillis). */
export const SmsSchedulePayload = z.object({ v: z.literal(1), scheduleId: z.number().int().positive() });
export type SmsSchedulePayload = z.infer<typeof SmsSchedulePayload>;

/** The sweep that sends due occurrences nobody ran and, with `sync`, makes Redis match the schedules table. */
export const SmsScheduleReconcilePayload = z.object({ v: z.literal(1), sync: z.boolean().default(false) });

/** Fan out one group send: its row holds the message, the group and how far it got. */
export const GroupSendPayload = z.object({ v: z.literal(1), groupSendId: z.number().int().positive() });
export type GroupSendPayload = z.infer<typeof GroupSendPayload>;

export const GroupSendReconcilePayload = z.object({ v: z.literal(1) });

/** Process stored inbound messages (keywords, replies); their inbound_outbox rows are the record. */
export const SmsInboundPayload = z.object({
  v: z.literal(1),
  inboundIds: z.array(z.number().int().positive()).min(1),
});
export type SmsInboundPayload = z.infer<typeof SmsInboundPayload>;

/** The sweep that re-adds inbound messages whose processing job Redis lost. */
export const SmsInboundReconcilePayload = z.object({ v: z.literal(1) });

/** One attempt of each of some deliveries to one target (their webhook_deliveries rows are the record); `attempt`: attempts made before it. */
export const WebhookDeliveryPayload = z.object({
  v: z.literal(2),
  deliveries: z.array(z.object({ deliveryId: z.number().int().positive(), attempt: z.number().int().min(0) })).min(1),
});
export type WebhookDeliveryPayload = z.infer<typeof WebhookDeliveryPayload>;
export const WebhookReconcilePayload = z.object({ v: z.literal(1) });
