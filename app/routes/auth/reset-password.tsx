import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, href, Link, useNavigation } from "react-router";
import { NewPasswordFields } from "#app/components/new-password-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { FormErrors } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { resetLinkProblem, resetPassword } from "#app/modules/accounts/password-reset.server.ts";
import { ResetPasswordSchema } from "#app/modules/accounts/schemas.ts";
import { isCommonPassword } from "#app/modules/auth/common-passwords.server.ts";
import { COMMON_PASSWORD_MESSAGE } from "#app/modules/auth/register.server.ts";
import { endSession } from "#app/modules/auth/session.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [
  { title: "Reset Password | SMS Gateway" },
  { name: "robots", content: "noindex" },
];

const hideFields = ["password", "confirmPassword"];

// A dead link answers 410 with what to do next; nothing is changed.
const refused = (refusal: string) => data({ refusal }, { status: 410 });

export async function loader({ params }: Route.LoaderArgs) {
  const problem = resetLinkProblem(params.token);
  return problem ? refused(problem) : { refusal: null };
}

export async function action({ request, params }: Route.ActionArgs) {
  const problem = resetLinkProblem(params.token);
  if (problem) return refused(problem);
  const submission = parseWithZod(await request.formData(), { schema: ResetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  if (await isCommonPassword(submission.value.password)) {
    return data(submission.reply({ fieldErrors: { password: [COMMON_PASSWORD_MESSAGE] }, hideFields }), {
      status: 400,
    });
  }
  const result = await resetPassword(params.token, submission.value.password);
  if (!result.ok) return refused(result.error);
  // Every session of the account has ended; this browser's cookie goes too.
  return redirectWithToast(
    href("/login"),
    { description: "Your password has been changed. Please login with it; every other session has ended." },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const refusal = (actionData && "refusal" in actionData ? actionData.refusal : null) ?? loaderData.refusal;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData && !("refusal" in actionData) ? actionData : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Reset Password" />
      <Card>
        {refusal ? (
          <>
            <Notice tone="danger">{refusal}</Notice>
            <p className="mt-4 text-center text-sm text-slate-600">
              <Link to={href("/forgot-password")}>Ask for a new link</Link>
            </p>
          </>
        ) : (
          <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
            <FormErrors id={form.errorId} errors={form.errors} />
            <NewPasswordFields
              password={fields.password}
              confirmation={fields.confirmPassword}
              help="At least 8 characters. Every session of your account ends."
              autoFocus
            />
            <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
              Set New Password
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
