import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireAnonymous } from "#app/routes/auth/guards.server.ts";
import { RESET_REQUESTED, requestPasswordReset } from "#app/modules/accounts/password-reset.server.ts";
import { ForgotPasswordSchema } from "#app/modules/accounts/schemas.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [{ title: "Forgot Password | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await requestPasswordReset(request, submission.value.email);
  if (!result.ok) {
    return data(submission.reply({ formErrors: [result.error] }), {
      status: 429,
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    });
  }
  return redirectWithToast(href("/login"), { description: RESET_REQUESTED });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Forgot Password" />
      <Card>
        <p className="mb-4 text-sm text-slate-700">
          Enter the e-mail address you sign in with. We e-mail it a link to choose a new password.
        </p>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="Email"
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
            errors={fields.email.errors}
          />
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            Send Reset Link
          </Button>
        </Form>
        <p className="mt-4 text-center text-sm text-slate-600">
          Remembered it? <Link to={href("/login")}>Login</Link>
        </p>
      </Card>
    </div>
  );
}
