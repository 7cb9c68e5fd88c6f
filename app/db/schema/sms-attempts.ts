import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { smsMessages } from "#app/db/schema/sms.ts";

// accepted: every part asked for was taken; temporary: tried again later; permanent: refused for good;
// unknown: written, never answered (decision 138); passed_on: not taken here, the route's next upstream tried.
export const SUBMIT_ATTEMPT_OUTCOMES = ["accepted", "temporary", "permanent", "unknown", "passed_on"] as const;
export type SubmitAttemptOutcome = (typeof SUBMIT_ATTEMPT_OUTCOMES)[number];

/**
 * One try at handing a message to an SMSC, with its answer: written with the answers of its slice
 * (one INSERT per slice), read by the message's journey. Goes with its message (retention).
 */
export const smsSubmitAttempts = sqliteTable(
  "sms_submit_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id")
      .notNull()
      .references(() => smsMessages.id, { onDelete: "cascade" }),
    attemptedAt: integer("attempted_at", { mode: "timestamp_ms" }).notNull(),
    // The upstream and bind that took (or refused) it, as the transport reports them; null: not reported.
    upstream: text("upstream"),
    bind: text("bind"),
    outcome: text("outcome", { enum: SUBMIT_ATTEMPT_OUTCOMES }).notNull(),
    // The submit_sm_resp's command_status when the transport reports it (0 for an accepted part).
    commandStatus: integer("command_status"),
    // The SMSC message ids of the parts this try got accepted, space-separated in part order.
    providerIds: text("provider_ids"),
    error: text("error"),
  },
  (t) => [index("sms_submit_attempts_message_idx").on(t.messageId, t.id)],
);
