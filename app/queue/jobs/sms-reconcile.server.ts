// The sweep of messages whose send job Redis lost; its only producer is the worker's job scheduler.
import { z } from "zod";

export const SMS_RECONCILE_QUEUE = "sms-reconcile";

export const SmsReconcilePayload = z.object({ v: z.literal(1) });
export type SmsReconcilePayload = z.infer<typeof SmsReconcilePayload>;
