import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireAnonymous } from "#app/routes/auth/guards.server.ts";
import { RegisterSchema } from "#app/modules/auth/schemas.ts";
import { registerCustomer } from "#app/modules/accounts/register.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = () => [{ title: "Register | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: RegisterSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const result = await registerCustomer(request, submission.value);
  if (!result.ok && result.field) {
    return data(submission.reply({ fieldErrors: { [result.field]: [result.error] }, hideFields: ["password"] }), {
      status: 400,
    });
  }
  if (!result.ok) {
    return data(submission.reply({ formErrors: [result.error], hideFields: ["password"] }), {
      status: result.status,
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    });
  }
  return redirectWithToast(href("/login"), { description: "Registration successful! Please login to continue." });
}

export default function Register({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "register",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    // Errors clear while typing: clearing them on blur shifts the button away under the pointer mid-click.
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Register" />
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="Email"
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
            errors={fields.email.errors}
          />
          <Field
            label="Full Name"
            inputProps={{ ...getInputProps(fields.fullName, { type: "text" }), autoComplete: "name" }}
            errors={fields.fullName.errors}
          />
          <Field
            label="Password"
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password.errors}
            help="At least 8 characters."
          />
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            Register
          </Button>
        </Form>
        <p className="mt-4 text-center text-sm text-slate-600">
          Already registered? <Link to={href("/login")}>Login</Link>
        </p>
      </Card>
    </div>
  );
}
