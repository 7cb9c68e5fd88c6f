// The REST API's error codes and their HTTP statuses, documented in the OpenAPI document from here.

export const API_ERRORS = {
  invalid_request: {
    status: 400,
    description: "The request could not be read: malformed JSON, a bad query parameter or header.",
  },
  unauthorized: { status: 401, description: "No API key, or not a valid one (e.g. replaced by Regenerate)." },
  insufficient_credits: {
    status: 402,
    description: "Not enough credits for this message; nothing was sent or charged.",
  },
  quota_exceeded: {
    status: 403,
    description:
      "Your account already holds as many of these as its quota allows (contacts, groups, scheduled messages); nothing was created.",
  },
  insufficient_scope: {
    status: 403,
    description:
      "The API key is valid but lacks the scope this endpoint needs (the operation's x-required-scope); make a key with it on the API Token screen.",
  },
  account_disabled: {
    status: 403,
    description:
      "The operator has disabled this account: its keys are refused until it is enabled again; nothing was done. Write to support.",
  },
  email_unverified: {
    status: 403,
    description:
      "The account's e-mail address is not verified yet: open the link e-mailed at sign-up (or ask for a new one on the Settings screen); nothing was sent or created.",
  },
  not_found: { status: 404, description: "No such resource, or it belongs to another account." },
  method_not_allowed: { status: 405, description: "The path exists but not with this method (see the Allow header)." },
  idempotency_conflict: {
    status: 409,
    description: "This Idempotency-Key was used before with a different request body.",
  },
  endpoint_disabled: {
    status: 409,
    description:
      "The webhook endpoint is turned off: turn it on (PATCH enabled: true) before sending it a test event or a redelivery; nothing was sent.",
  },
  already_sent: {
    status: 409,
    description: "The message has already gone out (or was never a scheduled one), so it cannot be cancelled.",
  },
  payload_too_large: { status: 413, description: "The request body is larger than allowed." },
  unsupported_media_type: {
    status: 415,
    description: "The request body must be JSON (Content-Type: application/json).",
  },
  validation_failed: {
    status: 422,
    description: "A field is missing or invalid: `field` names the first, `errors` lists every one.",
  },
  recipient_opted_out: {
    status: 422,
    description:
      "The recipient opted out of your messages (they replied STOP to this sender, or the number is on your opt-out list); nothing was sent or charged.",
  },
  unknown_sender: {
    status: 422,
    description: "`from` is not one of your senders (see the Senders screen); nothing was sent or charged.",
  },
  keyword_opt_out: {
    status: 409,
    description: "The number opted out by text message (STOP); only a START from that phone lifts it.",
  },
  nothing_to_send: {
    status: 422,
    description: "The group has no contacts, or all of them opted out; nothing was sent.",
  },
  rate_limited: {
    status: 429,
    description:
      "Too many requests with this key or this account (all its keys together), or too many test events or redeliveries to one webhook endpoint; wait the seconds in Retry-After.",
  },
  internal_error: { status: 500, description: "Something went wrong on our side; the request may be retried." },
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];

/** One invalid field of a request: its path (e.g. messages.2.to) and what is wrong. */
export type FieldError = { field: string | undefined; message: string };

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;
  constructor(
    code: ApiErrorCode,
    message: string,
    options: { field?: string; headers?: Record<string, string>; errors?: FieldError[] } = {},
  ) {
    super(message);
    this.errors = options.errors;
    this.name = "ApiError";
    this.code = code;
    this.status = API_ERRORS[code].status;
    this.field = options.field;
    this.headers = options.headers ?? {};
  }

  toBody() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field ? { field: this.field } : {}),
        ...(this.errors ? { errors: this.errors } : {}),
      },
    };
  }
}

/** The 404 for an id that is not one of the caller's `what`s (or does not exist). */
export function notFoundError(what: string): ApiError {
  return new ApiError("not_found", `No ${what} with this id in your account`);
}
