// Typed failures of the senders domain: the screens and the REST API map them to their own answers.

/** `from` is not one of the account's active senders. */
export class UnknownSenderError extends Error {
  readonly code = "unknown_sender";
  readonly from: string;
  constructor(from: string) {
    super(`"${from}" is not one of your senders`);
    this.name = "UnknownSenderError";
    this.from = from;
  }
}

/** The id is not one of this account's senders (or requests): a 404 to the caller. */
export class SenderNotFoundError extends Error {
  readonly code = "not_found";
  constructor() {
    super("No such sender");
    this.name = "SenderNotFoundError";
  }
}

/** Another active sender already has this address. */
export class DuplicateSenderError extends Error {
  readonly code = "duplicate_sender";
  constructor(address: string) {
    super(`The sender ${address} already exists`);
    this.name = "DuplicateSenderError";
  }
}
