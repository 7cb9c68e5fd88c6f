// Typed failures of the webhooks domain: the screens and the REST API map them to their own answers.

/** The id is not one of this account's endpoints (or deliveries): a 404 to the caller. */
export class WebhookNotFoundError extends Error {
  readonly code = "not_found";
  constructor(what = "webhook endpoint") {
    super(`No such ${what}`);
    this.name = "WebhookNotFoundError";
  }
}

/** A test event or a redelivery for an endpoint that is turned off: nothing is sent. */
export class WebhookEndpointOffError extends Error {
  readonly code = "endpoint_disabled";
  constructor() {
    super("This endpoint is turned off: turn it on before sending it a test event or a redelivery");
    this.name = "WebhookEndpointOffError";
  }
}

/** Too many test events and redeliveries to one endpoint this minute: nothing is sent. */
export class WebhookManualSendsLimitError extends Error {
  readonly code = "rate_limited";
  readonly retryAfterSeconds: number;
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      `At most ${limit} test events and redeliveries a minute per endpoint: please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`,
    );
    this.name = "WebhookManualSendsLimitError";
    this.retryAfterSeconds = retryAfterSeconds;
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
