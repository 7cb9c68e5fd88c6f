// Browser-safe: the limits and refusal codes of a batch send (send-batch.server.ts), for its schemas.

/** Most messages in one batch: the write lock stays a few milliseconds. */
export const MAX_BATCH_MESSAGES = 1_000;

/** Why one recipient of a batch was not sent to; the others still go. */
export const BATCH_REFUSALS = [
  "invalid_phone",
  "recipient_opted_out",
  "unknown_sender",
  "insufficient_credits",
] as const;
export type BatchRefusal = (typeof BATCH_REFUSALS)[number];
