// Browser-safe: an outbound message as integrators see it, the one shape of GET /api/v1/messages/{id}
// and of the webhooks' message.* payloads, so a receiver and a poller read the same fields.
import { OPTED_OUT_REASON } from "#app/modules/opt-outs/errors.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import type { SmsEncoding } from "#app/modules/messaging/segments.ts";

export type MessageResourceRow = {
  id: number;
  to: string;
  from: string | null;
  body: string;
  encoding: SmsEncoding;
  segments: number;
  credits: number;
  status: MessageStatus;
  statusDetail: string | null;
  groupSendId: number | null;
  createdAt: number;
  submittedAt: number | null;
  doneAt: number | null;
  updatedAt: number;
};

/** Machine-readable reasons a message did not arrive; errorMessage says it in words. */
export const MESSAGE_ERROR_CODES = [
  "send_failed",
  "recipient_opted_out",
  "undelivered",
  "expired",
  "rejected",
] as const;
export type MessageErrorCode = (typeof MESSAGE_ERROR_CODES)[number];

type Instants = "createdAt" | "submittedAt" | "doneAt" | "updatedAt";

/** The stored row's fields with its instants as ISO strings, and why it did not arrive. */
export type MessageResource = { direction: "outbound" } & Omit<MessageResourceRow, Instants> & {
    errorCode: MessageErrorCode | null;
    errorMessage: string | null;
    createdAt: string;
    submittedAt: string | null;
    doneAt: string | null;
    updatedAt: string;
  };

const CARRIER_FAILURES: Partial<Record<MessageStatus, string>> = {
  undelivered: "The carrier could not deliver it",
  expired: "It expired before the phone could be reached",
  rejected: "The carrier rejected it",
};

function errorOf(status: MessageStatus, detail: string | null): Pick<MessageResource, "errorCode" | "errorMessage"> {
  if (status === "failed") {
    if (detail === OPTED_OUT_REASON) return { errorCode: "recipient_opted_out", errorMessage: detail };
    return { errorCode: "send_failed", errorMessage: detail ?? "It could not be sent; its credits were refunded" };
  }
  const carrier = CARRIER_FAILURES[status];
  if (carrier === undefined) return { errorCode: null, errorMessage: null };
  // A receipt's detail is the carrier's own err: code.
  return {
    errorCode: status as MessageErrorCode,
    errorMessage: detail ? `${carrier} (carrier error ${detail})` : carrier,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toMessageResource(row: MessageResourceRow): MessageResource {
  return {
    direction: "outbound",
    id: row.id,
    to: row.to,
    from: row.from,
    body: row.body,
    encoding: row.encoding,
    segments: row.segments,
    credits: row.credits,
    status: row.status,
    statusDetail: row.statusDetail,
    groupSendId: row.groupSendId,
    ...errorOf(row.status, row.statusDetail),
    createdAt: new Date(row.createdAt).toISOString(),
    submittedAt: iso(row.submittedAt),
    doneAt: iso(row.doneAt),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
