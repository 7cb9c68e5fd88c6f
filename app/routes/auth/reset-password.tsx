import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { NewPasswordFields } from "#app/components/new-password-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { CheckboxField, FormErrors } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { forgetApiKeys } from "#app/api/auth.server.ts";
import { resetLinkState, resetPassword } from "#app/modules/accounts/password-reset.server.ts";
import { ResetPasswordSchema, REVOKE_ACCESS_LABEL } from "#app/modules/accounts/schemas.ts";
import { isCommonPassword } from "#app/modules/auth/common-passwords.server.ts";
import { COMMON_PASSWORD_MESSAGE } from "#app/modules/accounts/register.server.ts";
import { endSession } from "#app/modules/auth/session.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [
  { title: "Reset Password | SMS Gateway" },
  { name: "robots", content: "noindex" },
];

const hideFields = ["password", "confirmPassword"];

// A dead link answers 410 with what to do next; nothing is changed.
const refused = (refusal: string) => data({ refusal }, { status: 410 });

export async function loader({ params }: Route.LoaderArgs) {
  const link = await resetLinkState(params.token);
  return link.refusal === null ? link : refused(link.refusal);
}

export async function action({ request, params }: Route.ActionArgs) {
  const link = await resetLinkState(params.token);
  if (link.refusal !== null) return refused(link.refusal);
  const submission = parseWithZod(await request.formData(), { schema: ResetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  if (await isCommonPassword(submission.value.password)) {
    return data(submission.reply({ fieldErrors: { password: [COMMON_PASSWORD_MESSAGE] }, hideFields }), {
      status: 400,
    });
  }
  const result = await resetPassword(params.token, submission.value.password, {
    revokeAccess: submission.value.revokeAccess,
    forgetApiKeys,
  });
  if (!result.ok) return refused(result.error);
  const revoked = result.revoked
    ? ` ${pluralize(result.revoked.apiKeys, "API key")} and ${pluralize(result.revoked.endpoints, "webhook endpoint")} were revoked.`
    : "";
  // Every session of the account has ended; this browser's cookie goes too.
  return redirectWithToast(
    href("/login"),
    { description: `Your password has been changed. Please login with it; every other session has ended.${revoked}` },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const refusal = (actionData && "refusal" in actionData ? actionData.refusal : null) ?? loaderData.refusal;
  const firstProof = "firstProof" in loaderData && loaderData.firstProof;
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
            {firstProof ? (
              <Notice tone="warning">
                This link is the first proof that this e-mail address is yours, so every API key, webhook endpoint,
                two-factor setting and sender request made in the account before it is revoked: whoever made them may
                not have been you.
              </Notice>
            ) : (
              <div>
                <CheckboxField
                  label={REVOKE_ACCESS_LABEL}
                  inputProps={getInputProps(fields.revokeAccess, { type: "checkbox" })}
                  errors={fields.revokeAccess.errors}
                />
                <p className="mt-1 pl-6 text-sm text-slate-600">
                  If someone else may have used your account: they stop working at once, and your programs need a new
                  key.
                </p>
              </div>
            )}
            <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
              Set New Password
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
