// Browser-safe: the confirm step's sentence for a templated group send.
import { formatNumber, pluralize } from "#app/utils/misc.ts";

/** "312 messages, 340 credits; 4 skipped: no name and no fallback" */
export function describeQuote(quote: {
  messages: number;
  credits: number;
  skipped: number;
  skipReasons: Record<string, number>;
}): string {
  const sent = `${pluralize(quote.messages, "message")}, ${pluralize(quote.credits, "credit")}`;
  if (quote.skipped === 0) return sent;
  const reasons = Object.entries(quote.skipReasons).map(([reason, n]) =>
    Object.keys(quote.skipReasons).length === 1 ? reason : `${formatNumber(n)} ${reason}`,
  );
  return `${sent}; ${formatNumber(quote.skipped)} skipped: ${reasons.join(", ")}`;
}

/** A templated group send's total as the server counted it, and the key that confirms exactly it. */
export type TemplateSendQuote = {
  /** The body it was counted for: the confirmation only stands while the message is unchanged. */
  body: string;
  key: string;
  messages: number;
  description: string;
  examples: { name: string; text: string }[];
};

/** The confirm step's quote in a form action's answer, if it carries one. */
export function templateQuoteOf(actionData: unknown): TemplateSendQuote | null {
  if (!actionData || typeof actionData !== "object" || !("templateQuote" in actionData)) return null;
  return actionData.templateQuote as TemplateSendQuote;
}
