// DEMO_MODE's purge of old orders; its only producer is the worker's job scheduler.
import { z } from "zod";

export const DEMO_PURGE_QUEUE = "demo-purge";

export const DemoPurgePayload = z.object({ v: z.literal(1) });
export type DemoPurgePayload = z.infer<typeof DemoPurgePayload>;
