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
