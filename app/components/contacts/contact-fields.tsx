import { type FieldMetadata, getCollectionProps, getInputProps } from "@conform-to/react";
import { TEXT } from "#app/web/contact-lists.ts";
import { CheckboxField, ErrorList, Field } from "#app/components/ui/field.tsx";

type ContactFieldset = {
  name: FieldMetadata<string>;
  phoneNumber: FieldMetadata<string>;
  email: FieldMetadata<string>;
  timeZone: FieldMetadata<string | null>;
  groupIds: FieldMetadata<unknown[] | undefined>;
};

/** Name, Phone Number, Email, Time Zone and a checkbox per group: the create screen and the edit panel. */
export function ContactFields({ fields, groups }: { fields: ContactFieldset; groups: { id: number; name: string }[] }) {
  const checkboxes = getCollectionProps(fields.groupIds, {
    type: "checkbox",
    options: groups.map((g) => String(g.id)),
  });
  return (
    <>
      <Field
        label="Name"
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
        errors={fields.name.errors}
      />
      <Field
        label="Phone Number"
        inputProps={{
          ...getInputProps(fields.phoneNumber, { type: "tel" }),
          autoComplete: "off",
          placeholder: "e.g. +1 202 555 0123",
        }}
        errors={fields.phoneNumber.errors}
      />
      <Field
        label="Email"
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
        errors={fields.email.errors}
      />
      <Field
        label="Time Zone (optional)"
        inputProps={{
          ...getInputProps(fields.timeZone, { type: "text" }),
          autoComplete: "off",
          placeholder: "e.g. Europe/Berlin",
        }}
        errors={fields.timeZone.errors}
        help="For quiet hours. Empty: the zone of the number's country."
      />
      <fieldset className="col-span-full">
        <legend className="mb-1 block text-sm font-medium text-slate-700">Groups</legend>
        {groups.length === 0 ? (
          <p className="text-sm text-slate-600">{TEXT.noGroups}</p>
        ) : (
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {checkboxes.map((props, i) => (
              <CheckboxField key={props.key} label={groups[i].name} inputProps={{ ...props, key: undefined }} />
            ))}
          </div>
        )}
        <ErrorList errors={fields.groupIds.errors} />
      </fieldset>
    </>
  );
}
