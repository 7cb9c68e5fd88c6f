import { type FieldMetadata, getInputProps, getTextareaProps } from "@conform-to/react";
import { ErrorList, Field, TextareaField } from "#app/components/ui/field.tsx";
import { Notice } from "#app/components/ui/page.tsx";

/** The Subject and Message fields both support forms share. */
export function SubjectAndMessage({
  subject,
  message,
}: {
  subject: FieldMetadata<string>;
  message: FieldMetadata<string>;
}) {
  return (
    <>
      <Field
        label="Subject"
        inputProps={{ ...getInputProps(subject, { type: "text" }), maxLength: 200 }}
        errors={subject.errors}
      />
      <TextareaField
        label="Message"
        textareaProps={{ ...getTextareaProps(message), rows: 10, maxLength: 5000 }}
        errors={message.errors}
      />
    </>
  );
}

/** A failure of the whole form (e.g. too many messages), shown above the fields. */
export function FormFailure({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <Notice tone="danger">
      <ErrorList id={id} errors={errors} />
    </Notice>
  );
}

/**
 * A field people never see or reach (off-screen, hidden from screen readers, out of the tab
 * order, no autofill); bots that fill every input give themselves away.
 */
export function Honeypot({ name }: { name: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={`${name}-field`}>Leave this field empty</label>
      <input id={`${name}-field`} type="text" name={name} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
