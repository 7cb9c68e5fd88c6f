import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { Form, href, useNavigation } from "react-router";
import { GroupFields } from "#app/components/contacts/group-fields.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { createGroupAction } from "#app/routes/sms/forms/contacts.server.ts";
import { GroupSchema } from "#app/modules/contacts/schemas.ts";
import type { Route } from "./+types/create-group";

export const meta: Route.MetaFunction = () => [{ title: "Create Group | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return createGroupAction(await request.formData(), user.id);
}

export default function CreateGroup({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "create-group",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: GroupSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader subtitle="SMS Gateway" title="Create Group" />
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <GroupFields fields={fields} />
          <div className="flex flex-wrap gap-2 pt-2">
            <Button type="submit" disabled={navigation.state === "submitting"}>
              Create Group
            </Button>
            <ButtonLink to={href("/sms/messageHistory")} variant="secondary">
              Message History
            </ButtonLink>
          </div>
        </Form>
      </Card>
    </div>
  );
}
