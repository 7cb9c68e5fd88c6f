import { type FieldMetadata, getInputProps, getTextareaProps } from "@conform-to/react";
import { Field, TextareaField } from "#app/components/ui/field.tsx";

/** Group Name and Group Description: the create screen and the edit panel. */
export function GroupFields({
  fields,
}: {
  fields: { groupName: FieldMetadata<string>; description: FieldMetadata<string> };
}) {
  return (
    <>
      <Field
        label="Group Name"
        inputProps={{ ...getInputProps(fields.groupName, { type: "text" }), autoComplete: "off" }}
        errors={fields.groupName.errors}
      />
      <TextareaField
        label="Group Description"
        textareaProps={{ ...getTextareaProps(fields.description), rows: 3 }}
        errors={fields.description.errors}
      />
    </>
  );
}
