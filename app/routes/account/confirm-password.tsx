import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { confirmPassword } from "#app/modules/auth/recent-sign-in.server.ts";
import { ConfirmPasswordSchema } from "#app/modules/auth/security-schemas.ts";
import { markPasswordConfirmed } from "#app/modules/auth/session.server.ts";
import { safeRedirect } from "#app/utils/http.server.ts";
import type { Route } from "./+types/confirm-password";

export const meta: Route.MetaFunction = () => [{ title: "Confirm your password | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return { cancelTo: safeRedirect(new URL(request.url).searchParams.get("returnTo"), href("/sms/sendSms")) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: ConfirmPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const result = await confirmPassword(user.id, submission.value.password);
  if (!result.ok) {
    return data(submission.reply({ fieldErrors: { password: [result.error] }, hideFields: ["password"] }), {
      status: result.status,
    });
  }
  await markPasswordConfirmed(request);
  return redirect(safeRedirect(submission.value.returnTo, href("/account/two-factor")));
}

export default function ConfirmPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const returnTo = searchParams.get("returnTo") ?? "";
  const [form, fields] = useForm({
    id: "confirm-password",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmPasswordSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader subtitle="Account" title="Confirm your password" />
      <Card>
        <p className="mb-4 text-sm text-slate-700">
          This needs your password, as you signed in a while ago. You will go back to where you were.
        </p>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <input type="hidden" name="returnTo" value={returnTo} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <Field
            label="Password"
            inputProps={{
              ...getInputProps(fields.password, { type: "password" }),
              autoComplete: "current-password",
              autoFocus: true,
            }}
            errors={fields.password.errors}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={navigation.state === "submitting"}>
              Confirm
            </Button>
            <Link to={loaderData.cancelTo} className="self-center text-sm">
              Cancel
            </Link>
          </div>
        </Form>
      </Card>
    </div>
  );
}
