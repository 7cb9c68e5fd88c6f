import { Button } from "#app/components/ui/button.tsx";
import { Notice } from "#app/components/ui/page.tsx";
import { SEND_PANEL_INTENT } from "#app/modules/contacts/schemas.ts";
import type { TemplateSendQuote } from "#app/modules/templates/quote.ts";

/** The confirm step inside a send form: the total, a few members' texts, and "Send" for exactly this. */
export function TemplateConfirm({
  quote,
  intent = SEND_PANEL_INTENT.send,
  label = "Send",
  note,
}: {
  quote: TemplateSendQuote;
  /** The submit button's intent and label: the form's own (e.g. a schedule's "Add SMS"). */
  intent?: string;
  label?: string;
  note?: string;
}) {
  return (
    <Notice tone="info">
      <h3 className="font-semibold">Check before sending</h3>
      <p className="mt-1" data-testid="template-quote" role="status">
        {quote.description}
      </p>
      {note ? <p className="mt-1 text-sm">{note}</p> : null}
      {quote.examples.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm">
          {quote.examples.map((example) => (
            <li key={example.name + example.text} className="break-words whitespace-pre-wrap">
              <span className="font-medium">{example.name}:</span> {example.text}
            </li>
          ))}
        </ul>
      ) : null}
      <input type="hidden" name="quoted" value={quote.key} />
      {quote.messages > 0 ? (
        <Button type="submit" name="intent" value={intent} className="mt-3">
          {label}
        </Button>
      ) : (
        <p className="mt-2 text-sm font-medium">Nobody would get this message: change it, or add a fallback.</p>
      )}
    </Notice>
  );
}
