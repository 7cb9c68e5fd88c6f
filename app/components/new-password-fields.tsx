import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { Field } from "#app/components/ui/field.tsx";

/** "New Password" and "Confirm New Password", as the change and reset forms ask for them. */
export function NewPasswordFields({
  password,
  confirmation,
  help,
  autoFocus = false,
}: {
  password: FieldMetadata<string>;
  confirmation: FieldMetadata<string>;
  help: string;
  autoFocus?: boolean;
}) {
  return (
    <>
      <Field
        label="New Password"
        inputProps={{ ...getInputProps(password, { type: "password" }), autoComplete: "new-password", autoFocus }}
        errors={password.errors}
        help={help}
      />
      <Field
        label="Confirm New Password"
        inputProps={{ ...getInputProps(confirmation, { type: "password" }), autoComplete: "new-password" }}
        errors={confirmation.errors}
      />
    </>
  );
}
