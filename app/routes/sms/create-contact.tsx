import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { useMemo } from "react";
import { Form, href, useNavigation } from "react-router";
import { ContactFields } from "#app/components/contacts/contact-fields.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { contactListPage } from "#app/modules/contacts/contacts.server.ts";
import { createContactAction } from "#app/routes/sms/forms/contacts.server.ts";
import { listGroupChoices } from "#app/modules/contacts/groups.server.ts";
import { createContactSchema } from "#app/modules/contacts/schemas.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { Route } from "./+types/create-contact";

export const meta: Route.MetaFunction = () => [{ title: "Create Contact | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { groups: await listGroupChoices(user.id), defaultCountry: getEnv().DEFAULT_COUNTRY };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return createContactAction(await request.formData(), user.id, (contactId) => contactListPage(user.id, contactId));
}

export default function CreateContact({ loaderData, actionData }: Route.ComponentProps) {
  const { groups, defaultCountry } = loaderData;
  const navigation = useNavigation();
  const schema = useMemo(() => createContactSchema(defaultCountry), [defaultCountry]);
  const [form, fields] = useForm({
    id: "create-contact",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader subtitle="SMS Gateway" title="Create Contact" />
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <ContactFields fields={fields} groups={groups} />
          <div className="flex flex-wrap gap-2 pt-2">
            <Button type="submit" disabled={navigation.state === "submitting"}>
              Create Contact
            </Button>
            <ButtonLink to={href("/sms/accountContacts")} variant="secondary">
              Contacts
            </ButtonLink>
          </div>
        </Form>
      </Card>
    </div>
  );
}
