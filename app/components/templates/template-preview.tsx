import { previewTemplate, SAMPLE_CONTACT } from "#app/modules/messaging/merge-fields.ts";
import { SegmentCounter } from "#app/components/sms/send-sms-form.tsx";

/**
 * The body rendered for a sample contact, with its encoding and segments: rendered on the server,
 * and live as the body is typed when JavaScript runs.
 */
export function TemplatePreview({ body }: { body: string }) {
  const preview = body.trim() ? previewTemplate(body) : null;
  return (
    <section aria-labelledby="template-preview-title" className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200">
      <h2 id="template-preview-title" className="text-sm font-semibold text-slate-900">
        Preview for a sample contact
      </h2>
      <p className="mt-1 text-xs text-slate-600">
        {SAMPLE_CONTACT.name}, {SAMPLE_CONTACT.phone}, {SAMPLE_CONTACT.email}. Each recipient's own text is counted (and
        charged) on its own: a longer or non-GSM name can need another segment.
      </p>
      <div aria-live="polite" data-testid="template-preview">
        {preview === null ? (
          <p className="mt-2 text-sm text-slate-600">Type a message to see it here.</p>
        ) : "error" in preview ? (
          <p className="mt-2 text-sm text-red-700">{preview.error}</p>
        ) : (
          <>
            <p className="mt-2 rounded bg-white p-3 text-sm break-words whitespace-pre-wrap text-slate-900 ring-1 ring-slate-200">
              {preview.text}
            </p>
            <div className="mt-2 text-xs text-slate-600">
              <SegmentCounter body={preview.text} />
            </div>
          </>
        )}
      </div>
    </section>
  );
}
