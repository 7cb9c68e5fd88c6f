import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "#app/web/class-names.ts";

export type ListOfErrors = Array<string | null | undefined> | null | undefined;

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean);
  if (!shown?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-600" role="alert">
      {shown.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

const control =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-500 aria-[invalid]:ring-red-500 sm:text-sm";

function useFieldIds(id: string | undefined, errors: ListOfErrors, help?: ReactNode) {
  const fallback = useId();
  const fieldId = id ?? fallback;
  const errorId = errors?.some(Boolean) ? `${fieldId}-error` : undefined;
  const helpId = help ? `${fieldId}-help` : undefined;
  return { fieldId, errorId, describedBy: [helpId, errorId].filter(Boolean).join(" ") || undefined, helpId };
}

type FieldBase = { label: ReactNode; errors?: ListOfErrors; help?: ReactNode; className?: string };

function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1 block text-sm font-medium text-slate-700">
      {children}
    </label>
  );
}

function Help({ id, children }: { id?: string; children: ReactNode }) {
  return children ? (
    <div id={id} className="mt-1 text-xs text-slate-500">
      {children}
    </div>
  ) : null;
}

export function Field({
  label,
  errors,
  help,
  className,
  inputProps,
}: FieldBase & { inputProps: ComponentProps<"input"> }) {
  const ids = useFieldIds(inputProps.id, errors, help);
  return (
    <div className={className}>
      <Label htmlFor={ids.fieldId}>{label}</Label>
      <input
        {...inputProps}
        id={ids.fieldId}
        aria-invalid={ids.errorId ? true : undefined}
        aria-describedby={ids.describedBy}
        className={cn(control, inputProps.className)}
      />
      <Help id={ids.helpId}>{help}</Help>
      <ErrorList id={ids.errorId} errors={errors} />
    </div>
  );
}

export function TextareaField({
  label,
  errors,
  help,
  className,
  textareaProps,
}: FieldBase & { textareaProps: ComponentProps<"textarea"> }) {
  const ids = useFieldIds(textareaProps.id, errors, help);
  return (
    <div className={className}>
      <Label htmlFor={ids.fieldId}>{label}</Label>
      <textarea
        {...textareaProps}
        id={ids.fieldId}
        aria-invalid={ids.errorId ? true : undefined}
        aria-describedby={ids.describedBy}
        className={cn(control, textareaProps.className)}
      />
      <Help id={ids.helpId}>{help}</Help>
      <ErrorList id={ids.errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  label,
  errors,
  help,
  className,
  selectProps,
  children,
}: FieldBase & { selectProps: ComponentProps<"select">; children: ReactNode }) {
  const ids = useFieldIds(selectProps.id, errors, help);
  return (
    <div className={className}>
      <Label htmlFor={ids.fieldId}>{label}</Label>
      <select
        {...selectProps}
        id={ids.fieldId}
        aria-invalid={ids.errorId ? true : undefined}
        aria-describedby={ids.describedBy}
        className={cn(control, "pr-8", selectProps.className)}
      >
        {children}
      </select>
      <Help id={ids.helpId}>{help}</Help>
      <ErrorList id={ids.errorId} errors={errors} />
    </div>
  );
}

export function CheckboxField({
  label,
  errors,
  className,
  inputProps,
}: Omit<FieldBase, "help"> & { inputProps: ComponentProps<"input"> }) {
  const ids = useFieldIds(inputProps.id, errors);
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input
          {...inputProps}
          type="checkbox"
          id={ids.fieldId}
          aria-invalid={ids.errorId ? true : undefined}
          aria-describedby={ids.describedBy}
          className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
        />
        <label htmlFor={ids.fieldId} className="text-sm text-slate-700">
          {label}
        </label>
      </div>
      <ErrorList id={ids.errorId} errors={errors} />
    </div>
  );
}

/** Errors about the whole form (from the server), above its fields. */
export function FormErrors({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean);
  if (!shown?.length) return null;
  return (
    <div className="rounded-md bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200 ring-inset">
      <div role="alert" id={id} className="space-y-1">
        {shown.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  );
}
