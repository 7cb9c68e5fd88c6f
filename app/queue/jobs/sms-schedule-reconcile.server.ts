// The schedules' catch-up and sync; its only producer is the worker's job scheduler.
import { z } from "zod";

export const SMS_SCHEDULE_RECONCILE_QUEUE = "sms-schedule-reconcile";

/** The sweep that sends due occurrences nobody ran and, with `sync`, makes Redis match the schedules table. */
export const SmsScheduleReconcilePayload = z.object({ v: z.literal(1), sync: z.boolean().default(false) });
