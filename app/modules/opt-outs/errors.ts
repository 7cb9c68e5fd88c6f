// Typed failures of the opt-outs domain: the screens and the REST API map them to their own answers.

/** Why a message to a number that opted out was not sent (recorded at no charge, or refunded). */
export const OPTED_OUT_REASON = "Opted out";

/** The number is opted out for this send: nothing was queued or charged. */
export class OptedOutError extends Error {
  readonly code = "recipient_opted_out";
  readonly phones: string[];
  constructor(phones: string[]) {
    super(
      phones.length === 1
        ? `${phones[0]} has opted out of your messages`
        : `${phones.length} numbers have opted out of your messages: ${phones.join(", ")}`,
    );
    this.name = "OptedOutError";
    this.phones = phones;
  }
}

/** The id is not one of this account's opt-outs: a 404 to the caller. */
export class OptOutNotFoundError extends Error {
  readonly code = "not_found";
  constructor() {
    super("No such opt-out");
    this.name = "OptOutNotFoundError";
  }
}

/** A keyword opt-out is lifted only by the phone's own START. */
export class KeywordOptOutError extends Error {
  readonly code = "keyword_opt_out";
  constructor(phone: string) {
    super(`${phone} opted out by text message; only a START from that phone lifts it`);
    this.name = "KeywordOptOutError";
  }
}
