import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { type ReactNode, useMemo } from "react";
import { Form, useNavigation } from "react-router";
import type { Contact } from "#app/modules/contacts/contacts.server.ts";
import type { Group } from "#app/modules/contacts/groups.server.ts";
import { createEditContactSchema, EditGroupSchema } from "#app/modules/contacts/schemas.ts";
import type { CountryCode } from "#app/modules/messaging/phone.ts";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { CheckboxField, FormErrors } from "#app/components/ui/field.tsx";
import { ContactFields } from "#app/components/contacts/contact-fields.tsx";
import { GroupFields } from "#app/components/contacts/group-fields.tsx";

type LastResult = SubmissionResult<string[]> | null | undefined;

function PanelButtons({ label, cancelHref }: { label: string; cancelHref: string }) {
  const navigation = useNavigation();
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={navigation.state === "submitting"}>
        {label}
      </Button>
      <ButtonLink to={cancelHref} variant="secondary" preventScrollReset>
        Cancel
      </ButtonLink>
    </div>
  );
}

type PanelFormProps = {
  formProps: ReturnType<typeof getFormProps>;
  errorId: string;
  errors: string[] | undefined;
  id: number;
  children: ReactNode;
};

function PanelForm({ formProps, errorId, errors, id, children }: PanelFormProps) {
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...formProps} noValidate>
      <FormErrors id={errorId} errors={errors} />
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={id} />
      {children}
    </Form>
  );
}

/** Edit Contact: its fields, its group membership and whether it is active. */
export function EditContactPanel({
  contact,
  groups,
  defaultCountry,
  cancelHref,
  lastResult,
}: {
  contact: Contact;
  groups: { id: number; name: string }[];
  defaultCountry: CountryCode;
  cancelHref: string;
  lastResult: LastResult;
}) {
  const schema = useMemo(() => createEditContactSchema(defaultCountry), [defaultCountry]);
  const [form, fields] = useForm({
    id: `edit-contact-${contact.id}`,
    lastResult,
    defaultValue: {
      name: contact.name,
      phoneNumber: contact.phone,
      email: contact.email,
      timeZone: contact.timeZone ?? "",
      groupIds: contact.groups.map((g) => String(g.id)),
      active: contact.status ? "on" : undefined,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <PanelForm formProps={getFormProps(form)} errorId={form.errorId} errors={form.errors} id={contact.id}>
      <div className="grid gap-4 md:grid-cols-3">
        <ContactFields fields={fields} groups={groups} />
      </div>
      <CheckboxField
        label="Active (inactive contacts have opted out: group sends skip them)"
        inputProps={getInputProps(fields.active, { type: "checkbox" })}
        errors={fields.active.errors}
      />
      <PanelButtons label="Update Contact" cancelHref={cancelHref} />
    </PanelForm>
  );
}

/** Edit Group: name and description. */
export function EditGroupPanel({
  group,
  cancelHref,
  lastResult,
}: {
  group: Group;
  cancelHref: string;
  lastResult: LastResult;
}) {
  const [form, fields] = useForm({
    id: `edit-group-${group.id}`,
    lastResult,
    defaultValue: { groupName: group.name, description: group.description },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditGroupSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <PanelForm formProps={getFormProps(form)} errorId={form.errorId} errors={form.errors} id={group.id}>
      <div className="grid gap-4 md:grid-cols-2">
        <GroupFields fields={fields} />
      </div>
      <PanelButtons label="Update Group" cancelHref={cancelHref} />
    </PanelForm>
  );
}
