import type { ReceiptStatus } from "#app/modules/messaging/message-status.ts";

export type OutgoingSms = {
  id: number;
  /** E.164, e.g. +12025550123. */
  to: string;
  body: string;
  /** The sender it goes out from, with its SMPP TON/NPI; absent: the transport's default source address. */
  from?: SenderSource;
  /** 1-based parts still to send: a retry skips the parts the SMSC already accepted. */
  parts: number[];
  /** The upstreams (ids) its route tries, in order; absent: the environment's upstream alone. */
  upstreams?: readonly string[];
};

export type SenderSource = { address: string; ton: number; npi: number };

export type PartAck = { part: number; providerId: string };

/**
 * One part's submit_sm to one upstream's bind: the command_status of its submit_sm_resp (null when
 * no answer came) and the message id the SMSC gave it (null when refused or unanswered).
 */
export type SubmitAttempt = {
  upstream: string;
  bind: number;
  part: number;
  commandStatus: number | null;
  smscMessageId: string | null;
};

/** Every submit_sm written for the message on this try, in order, over every upstream it went to. */
type Attempts = { attempts?: SubmitAttempt[] };

export type SubmitOutcome =
  /** The SMSC accepted every part asked for; `takenBy`: the upstream and bind that did. */
  | ({ kind: "accepted"; acks: PartAck[]; takenBy?: { upstream: string; bind: number } } & Attempts)
  /** Worth retrying later (throttled, queue full, disconnected); `acks` are the parts it did accept. */
  | ({ kind: "temporary"; reason: string; acks: PartAck[] } & Attempts)
  /** Refused for good; `acks` are the parts it accepted before refusing the rest. */
  | ({ kind: "permanent"; reason: string; acks: PartAck[] } & Attempts)
  /**
   * Written to an upstream that never answered, on a route with others: it may have it, so it is
   * neither retried nor sent elsewhere (decision 138).
   */
  | ({ kind: "unknown"; reason: string; acks: PartAck[] } & Attempts)
  /** `claim` said no: someone else has the message; nothing was sent. */
  | { kind: "not-claimed" };

/** `error` is the carrier's `err:` code, when it gave one. */
export type Receipt = { providerId: string; status: ReceiptStatus; error: string | null };

/** Persists receipts; a transport acknowledges them to the SMSC only once they are stored. */
export type ReceiptSink = (receipts: Receipt[]) => Promise<void>;

/** One inbound PDU's message (or one part of a concatenated one), its text still as bytes. */
export type InboundSms = {
  /** The phone that sent it: E.164 when the SMSC says it is international, otherwise as it came. */
  from: string;
  /** The address it was sent to (one of the gateway's senders), normalized the same way. */
  to: string;
  dataCoding: number;
  /** The text's bytes, without any user data header. */
  payload: Buffer;
  /** Where it belongs in a concatenated message (UDH or SAR options); null for a whole message. */
  concat: { reference: number; total: number; sequence: number } | null;
};

/** Persists inbound messages; a transport acknowledges their PDUs only once they are stored. */
export type InboundSink = (messages: InboundSms[]) => Promise<void>;

/** Claims the messages about to leave (queued -> submitting); resolves to the ids it claimed. */
export type ClaimMessages = (ids: number[]) => Promise<Set<number>>;

export interface SmsTransport {
  readonly name: string;
  /**
   * Hands the messages' parts to the carrier, as many at once as its limits allow. `claim` runs
   * just before a group of messages leaves (after waiting for the connection and the rate limit;
   * SMPP claims one group beyond a full window, which waits for room): it records them as `submitting`,
   * and what it does not return is not sent ("not-claimed"). Every message of `messages` gets an outcome.
   */
  submitMany(messages: OutgoingSms[], claim: ClaimMessages): Promise<Map<number, SubmitOutcome>>;
  /**
   * Parts it holds claimed or on the wire at most (every bind's window and the group claimed beyond
   * it); none for one without such a limit (the simulator).
   */
  readonly capacity?: number;
  /** Stops taking work, says goodbye to the SMSC (unbind) and closes. */
  close(): Promise<void>;
}

/** The capacity of transports used side by side: their sum, none when one of them has none. */
export function totalCapacity(transports: SmsTransport[]): number | undefined {
  let total = 0;
  for (const { capacity } of transports) {
    if (capacity === undefined) return undefined;
    total += capacity;
  }
  return total;
}

/** The receipt `stat:` values of SMPP 3.4 Appendix B, mapped to message statuses. */
export function receiptStatus(stat: string): ReceiptStatus {
  switch (stat.toUpperCase()) {
    case "DELIVRD":
      return "delivered";
    case "UNDELIV":
      return "undelivered";
    case "EXPIRED":
      return "expired";
    case "REJECTD":
      return "rejected";
    default:
      return "unknown";
  }
}

/** One carrier connection the worker sends through: an SMPP account, or (test mode) a simulated one. */
export type UpstreamConfig = {
  /** Stable id: "env" for the environment's upstream, the routing table's id for the others. */
  id: string;
  name: string;
  kind: "smpp" | "simulator";
  /** smpp://host:port (ssmpp:// for TLS); credentials in the URL are used unless systemId/password are given. */
  url?: string;
  systemId?: string;
  password?: string;
  /** Sessions each worker process opens to it. */
  binds: number;
  /** submit_sm in flight at most, per bind. */
  window: number;
  /** Segments per second at most, for the whole deployment; 0 = no cap. */
  tps: number;
  /** The source address of messages without a sender of their own. */
  sourceAddr?: string;
  /** A simulated upstream that refuses every submit before accepting it (so a demo shows failover). */
  failing?: boolean;
};
