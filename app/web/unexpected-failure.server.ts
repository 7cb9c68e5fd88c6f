import { data } from "react-router";
import { log } from "#app/utils/log.server.ts";

/** Logs a failure that is not the user's doing (a database or queue error) with its cause. */
export function logUnexpected(message: string, error: unknown): void {
  log("error", "unexpected", message, error);
}

/**
 * A form's operation failed unexpectedly: the cause goes to the log, and the form comes back with
 * the spec's message above it and what the user typed (the domain's transaction left nothing behind).
 */
export function unexpectedFormFailure<R>(
  submission: { reply: (options: { formErrors: string[] }) => R },
  message: string,
  error: unknown,
) {
  logUnexpected(message, error);
  return data(submission.reply({ formErrors: [message] }), { status: 500 });
}
