import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireAnonymous } from "#app/routes/auth/guards.server.ts";
import { endSecondStep, secondStepUser } from "#app/routes/auth/second-step.server.ts";
import { SecondFactorSchema } from "#app/modules/auth/security-schemas.ts";
import { startSession } from "#app/modules/auth/session.server.ts";
import {
  checkSecondFactor,
  countTwoFactorAttempt,
  forgetTwoFactorAttempts,
} from "#app/modules/auth/two-factor.server.ts";
import { safeRedirect } from "#app/utils/http.server.ts";
import type { Route } from "./+types/login-two-factor";

export const meta: Route.MetaFunction = () => [{ title: "Two-factor authentication | SMS Gateway" }];

const EXPIRED = "Your sign-in took too long. Please enter your email and password again.";
const MESSAGES = {
  wrong: "That code is not right. Enter the code your app shows now (it changes every 30 seconds), or a recovery code.",
  "recovery-code-used": "That recovery code has been used already. Each one works once: use another.",
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  if ((await secondStepUser(request)) === null) throw redirect(href("/login"));
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: SecondFactorSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const userId = await secondStepUser(request);
  if (userId === null) return data(submission.reply({ formErrors: [EXPIRED] }), { status: 400 });
  const attempt = await countTwoFactorAttempt(userId);
  if (!attempt.allowed) {
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    return data(
      submission.reply({
        formErrors: [`Too many wrong codes. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`],
      }),
      { status: 429, headers: { "Retry-After": String(attempt.retryAfterSeconds) } },
    );
  }
  const result = await checkSecondFactor(userId, submission.value.code);
  if (result !== "ok")
    return data(submission.reply({ fieldErrors: { code: [MESSAGES[result]] }, hideFields: ["code"] }), { status: 400 });
  await forgetTwoFactorAttempts(userId);
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(request, userId));
  headers.append("Set-Cookie", await endSecondStep());
  return redirect(safeRedirect(submission.value.redirectTo, href("/sms/sendSms")), { headers });
}

export default function LoginTwoFactor({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login-two-factor",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SecondFactorSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Two-factor authentication" />
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <Field
            label="Code"
            help="The 6-digit code from your authenticator app, or one of your recovery codes."
            inputProps={{
              ...getInputProps(fields.code, { type: "text" }),
              autoComplete: "one-time-code",
              autoFocus: true,
              spellCheck: false,
            }}
            errors={fields.code.errors}
          />
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            Verify
          </Button>
        </Form>
        <p className="mt-4 text-center text-sm text-slate-600">
          <Link to={href("/login")}>Start again</Link>
        </p>
      </Card>
    </div>
  );
}
