import { z } from "zod";

// Job payloads are versioned so a worker can refuse (not misread) a payload from a newer producer.
export const HousekeepingPayload = z.object({ v: z.literal(1) });
export type HousekeepingPayload = z.infer<typeof HousekeepingPayload>;

export const DemoPurgePayload = z.object({ v: z.literal(1) });
export type DemoPurgePayload = z.infer<typeof DemoPurgePayload>;
