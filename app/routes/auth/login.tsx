import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireAnonymous } from "#app/routes/auth/guards.server.ts";
import { attemptLogin } from "#app/modules/auth/login.server.ts";
import { LoginSchema } from "#app/modules/auth/schemas.ts";
import { startSession } from "#app/modules/auth/session.server.ts";
import { isTwoFactorEnabled } from "#app/modules/auth/two-factor.server.ts";
import { isKnownDevice, rememberDevice } from "#app/routes/auth/known-device.server.ts";
import { startSecondStep } from "#app/routes/auth/second-step.server.ts";
import { safeRedirect } from "#app/utils/http.server.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Login | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

/**
 * The form strategy reads its form from the request it is given: a small copy holding only the two
 * fields, so the posted body is read (and held) once.
 */
function credentialsRequest(request: Request, { email, password }: { email: string; password: string }): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return new Request(request.url, {
    method: "POST",
    headers,
    body: new URLSearchParams({ email, password }),
    signal: request.signal,
  });
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const { email } = submission.value;
  const result = await attemptLogin(
    credentialsRequest(request, submission.value),
    email,
    await isKnownDevice(request, email),
  );
  if (!result.ok) {
    const headers = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
    return data(submission.reply({ formErrors: [result.error], hideFields: ["password"] }), {
      status: result.status,
      headers,
    });
  }
  const redirectTo = safeRedirect(submission.value.redirectTo, href("/sms/sendSms"));
  // The password was right: this browser is not held back by failures from elsewhere from now on.
  const knownDevice = await rememberDevice(request, email);
  const twoFactor = await isTwoFactorEnabled(result.user.id);
  const headers = new Headers({
    "Set-Cookie": twoFactor ? await startSecondStep(result.user.id) : await startSession(request, result.user.id),
  });
  headers.append("Set-Cookie", knownDevice);
  if (twoFactor)
    return redirect(`${href("/login/two-factor")}?redirectTo=${encodeURIComponent(redirectTo)}`, { headers });
  return redirect(redirectTo, { headers });
}

export default function Login({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    // Errors clear while typing: clearing them on blur shifts the button away under the pointer mid-click.
    shouldRevalidate: "onInput",
  });
  const redirectTo = searchParams.get("redirectTo") ?? "";
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title="Login" />
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {/* The first error shows inline, in red, without saying whether the account exists. */}
          <ErrorList id={form.errorId} errors={form.errors?.slice(0, 1)} />
          <Field
            label="Email"
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
            errors={fields.email.errors}
          />
          <Field
            label="Password"
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
            errors={fields.password.errors}
          />
          <p className="-mt-2 text-right text-sm">
            <Link to={href("/forgot-password")}>Forgot password?</Link>
          </p>
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            Login
          </Button>
        </Form>
        <p className="mt-4 text-center text-sm text-slate-600">
          No account yet? <Link to={href("/register")}>Register</Link>
        </p>
      </Card>
    </div>
  );
}
