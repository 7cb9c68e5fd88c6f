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

/** The address cannot be this sender's: the forms show the message next to the address field. */
export class SenderAddressError extends Error {}

/** Another active sender already has this address. */
export class DuplicateSenderError extends SenderAddressError {
  readonly code = "duplicate_sender";
  constructor(address: string) {
    super(`The sender ${address} already exists`);
    this.name = "DuplicateSenderError";
  }
}

/** The address is the gateway's shared default sender: no account may have it as its own. */
export class SharedSenderAddressError extends SenderAddressError {
  readonly code = "shared_sender";
  constructor(address: string) {
    super(
      `${address} is the gateway's shared sender, which every account without a sender of its own uses: choose another`,
    );
    this.name = "SharedSenderAddressError";
  }
}
