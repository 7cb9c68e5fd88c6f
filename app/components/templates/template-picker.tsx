import { Form, useSubmit } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";

export type TemplateChoice = { id: number; name: string };
/** A send form's start: the templates to choose from and the chosen one's body (`?template=ID`). */
export type TemplateStart = { templates: TemplateChoice[]; templateId: number | null; templateBody: string | null };

/**
 * "Start from a template": a GET form that reloads the page with `?template=ID`, whose loader fills
 * the message with the template's body. Without JavaScript the button submits it; with it, choosing does.
 * `keep` carries the page's other query parameters (e.g. an open panel).
 */
export function TemplatePicker({
  templates,
  selected,
  keep = {},
  formId,
}: {
  templates: TemplateChoice[];
  selected: number | null;
  keep?: Record<string, string | number | undefined>;
  /** Distinguishes the select's id when a page shows more than one form. */
  formId: string;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  if (templates.length === 0) return null;
  const selectId = `${formId}-template`;
  return (
    <Form method="get" preventScrollReset className="flex flex-wrap items-end gap-2" data-testid="template-picker">
      {Object.entries(keep).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      <div className="min-w-56 flex-1">
        <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-700">
          Start from a template
        </label>
        <select
          id={selectId}
          name="template"
          defaultValue={selected ?? ""}
          onChange={(event) => {
            if (event.currentTarget.value) void submit(event.currentTarget.form, { preventScrollReset: true });
          }}
          className="block w-full rounded-md border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-500 focus:ring-inset sm:text-sm"
        >
          <option value="">Choose a template…</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {hydrated ? null : (
        <Button type="submit" variant="secondary">
          Use template
        </Button>
      )}
    </Form>
  );
}
