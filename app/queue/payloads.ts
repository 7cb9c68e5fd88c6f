import { z } from "zod";

// Job payloads are versioned so a worker can refuse (not misread) a payload from a newer producer.
export const HousekeepingPayload = z.object({ v: z.literal(1) });
export type HousekeepingPayload = z.infer<typeof HousekeepingPayload>;

/** One message to hand to the SMSC; everything else is read from SQLite, the record. */
export const SmsSendPayload = z.object({ v: z.literal(1), messageId: z.number().int().positive() });
export type SmsSendPayload = z.infer<typeof SmsSendPayload>;

export const SmsReconcilePayload = z.object({ v: z.literal(1) });
export type SmsReconcilePayload = z.infer<typeof SmsReconcilePayload>;
