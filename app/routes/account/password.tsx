import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { NewPasswordFields } from "#app/components/new-password-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { PasswordChangeSchema } from "#app/modules/accounts/schemas.ts";
import { changePassword } from "#app/modules/accounts/settings.server.ts";
import { isCommonPassword } from "#app/modules/auth/common-passwords.server.ts";
import { COMMON_PASSWORD_MESSAGE } from "#app/modules/accounts/register.server.ts";
import { startSession } from "#app/modules/auth/session.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/password";

export const meta: Route.MetaFunction = () => [{ title: "Change Password | SMS Gateway" }];

const hideFields = ["currentPassword", "newPassword", "confirmPassword"];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: PasswordChangeSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  if (await isCommonPassword(submission.value.newPassword)) {
    return data(submission.reply({ fieldErrors: { newPassword: [COMMON_PASSWORD_MESSAGE] }, hideFields }), {
      status: 400,
    });
  }
  const result = await changePassword(user.id, submission.value);
  if (!result.ok) {
    const errors = result.field ? { fieldErrors: { [result.field]: [result.error] } } : { formErrors: [result.error] };
    return data(submission.reply({ ...errors, hideFields }), { status: result.status });
  }
  // Every session ended with the change; this browser continues in a new one.
  const cookie = await startSession(request, user.id);
  return redirectWithToast(
    href("/account/settings"),
    { description: "Password changed. You have been signed out everywhere else." },
    { headers: { "Set-Cookie": cookie } },
  );
}

export default function ChangePassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordChangeSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader subtitle="Your account" title="Change Password" />
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="Current Password"
            inputProps={{
              ...getInputProps(fields.currentPassword, { type: "password" }),
              autoComplete: "current-password",
              autoFocus: true,
            }}
            errors={fields.currentPassword.errors}
          />
          <NewPasswordFields
            password={fields.newPassword}
            confirmation={fields.confirmPassword}
            help="At least 8 characters. Every other browser signed in to your account is signed out."
          />
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            Change Password
          </Button>
        </Form>
        <p className="mt-4 text-center text-sm text-slate-600">
          <Link to={href("/account/settings")}>Back to Settings</Link>
        </p>
      </Card>
    </div>
  );
}
