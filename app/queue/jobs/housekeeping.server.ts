// The hourly purge of expired rows and retention; its only producer is the worker's job scheduler.
import { z } from "zod";

export const HOUSEKEEPING_QUEUE = "housekeeping";

// Job payloads are versioned so a worker can refuse (not misread) a payload from a newer producer.
export const HousekeepingPayload = z.object({ v: z.literal(1) });
export type HousekeepingPayload = z.infer<typeof HousekeepingPayload>;
