// Typed failures of the webhooks domain: the screens and the REST API map them to their own answers.

/** The id is not one of this account's endpoints (or deliveries): a 404 to the caller. */
export class WebhookNotFoundError extends Error {
  readonly code = "not_found";
  constructor(what = "webhook endpoint") {
    super(`No such ${what}`);
    this.name = "WebhookNotFoundError";
  }
}

/** A URL the gateway will not call: wrong scheme, or a host that resolves to a refused address. */
export class UnsafeWebhookUrlError extends Error {
  readonly code = "unsafe_url";
  constructor(reason: string) {
    super(reason);
    this.name = "UnsafeWebhookUrlError";
  }
}
