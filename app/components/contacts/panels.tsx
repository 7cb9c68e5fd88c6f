import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Form, useNavigate, useNavigation } from "react-router";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { FormErrors } from "#app/components/ui/field.tsx";

type LastResult = SubmissionResult<string[]> | null | undefined;

/**
 * The one open inline panel (edit, send, schedule, delete, result), in a table row under its row.
 * It is URL state, so it opens and works without JavaScript.
 */
export function PanelRow({ colSpan, title, children }: { colSpan: number; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <tr className="block sm:table-row" data-testid="panel-row">
      <td colSpan={colSpan} className="block bg-slate-50 px-4 py-4 sm:table-cell">
        <section aria-labelledby={headingId} className="rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id={headingId} className="mb-3 text-base font-semibold text-slate-900">
            {title}
          </h2>
          {children}
        </section>
      </td>
    </tr>
  );
}

/** Delete and Cancel; a delete that failed shows the spec's message above them, to try again or cancel. */
function DeleteForm({ id, cancelHref, lastResult }: { id: number; cancelHref: string; lastResult: LastResult }) {
  const navigation = useNavigation();
  const [form] = useForm({ id: `delete-${id}`, lastResult });
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={navigation.state !== "idle"}>
          Delete
        </Button>
        <ButtonLink to={cancelHref} variant="secondary" preventScrollReset data-autofocus>
          Cancel
        </ButtonLink>
      </div>
    </Form>
  );
}

/** A modal <dialog>: focus stays inside, Escape and Cancel close it (by leaving the URL state). */
function ConfirmDialog({ title, onCancel, children }: { title: string; onCancel: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // The safe choice has the focus, so Enter does not delete.
    dialog?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </dialog>
  );
}

/**
 * "Are you sure you want to delete this ...?": a modal dialog with JavaScript, a confirmation
 * panel under the row without it (both from `?panel=delete&id=`).
 */
export function DeleteConfirmRow({
  colSpan,
  title,
  question,
  detail,
  id,
  cancelHref,
  lastResult,
}: {
  colSpan: number;
  title: string;
  question: string;
  /** What else deleting it does, when that matters (e.g. the group's scheduled SMS are cancelled). */
  detail?: string;
  id: number;
  cancelHref: string;
  lastResult: LastResult;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const body = (
    <>
      <p className="mt-2 text-sm text-slate-700">{question}</p>
      {detail ? <p className="mt-2 text-sm font-medium text-amber-800">{detail}</p> : null}
      <DeleteForm id={id} cancelHref={cancelHref} lastResult={lastResult} />
    </>
  );
  if (!hydrated) {
    return (
      <PanelRow colSpan={colSpan} title={title}>
        {body}
      </PanelRow>
    );
  }
  return (
    <tr>
      <td colSpan={colSpan} className="p-0">
        <ConfirmDialog title={title} onCancel={() => navigate(cancelHref, { preventScrollReset: true })}>
          {body}
        </ConfirmDialog>
      </td>
    </tr>
  );
}
