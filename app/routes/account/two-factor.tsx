import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import QRCode from "qrcode";
import { data, Form, href, useNavigation } from "react-router";
import { z } from "zod";
import { SecurityNav } from "#app/components/account/security-nav.tsx";
import { VerifyEmailFirst } from "#app/components/account/verify-email-first.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { requireRecentSignIn, requireUser } from "#app/routes/auth/guards.server.ts";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { VERIFY_BEFORE, verifyFirstMessage } from "#app/modules/accounts/verify-first.ts";
import { EnrolSchema } from "#app/modules/auth/security-schemas.ts";
import {
  countTwoFactorAttempt,
  disableTwoFactor,
  finishEnrolment,
  forgetTwoFactorAttempts,
  pendingEnrolment,
  replaceRecoveryCodes,
  startEnrolment,
  twoFactorStatus,
} from "#app/modules/auth/two-factor.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = () => [{ title: "Two-factor authentication | SMS Gateway" }];

const WRONG_CODE = "That code is not right. Enter the code your app shows now; it changes every 30 seconds.";
const OtherIntent = z.object({ intent: z.enum(["start", "disable", "recovery-codes"]) });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const enrolment = await pendingEnrolment(user.id, user.email);
  const required = user.role === "admin" && getEnv().ADMIN_REQUIRE_2FA;
  return data(
    {
      status: await twoFactorStatus(user.id),
      required,
      mustVerifyEmail: await mustVerifyEmail(user.id),
      enrolment: enrolment && {
        secret: enrolment.secret.replace(/(.{4})/g, "$1 ").trim(),
        qrSvg: await QRCode.toString(enrolment.uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
      },
    },
    // The enrolment secret is on the page: never keep it in a cache.
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

const here = () => href("/account/two-factor");

// A second factor set before the address is proved would lock its real owner out after a reset.
const unverified = () =>
  data(
    {
      result: { status: "error" as const, error: { "": [verifyFirstMessage(VERIFY_BEFORE.twoFactor)] } },
      recoveryCodes: null,
    },
    { status: 403 },
  );

export async function action({ request }: Route.ActionArgs) {
  // Every change here needs the password lately: a stolen session could otherwise lock the owner out.
  const user = await requireRecentSignIn(request);
  const formData = await request.formData();
  if (formData.get("intent") === "confirm") {
    if (await mustVerifyEmail(user.id)) return unverified();
    const submission = parseWithZod(formData, { schema: EnrolSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), recoveryCodes: null }, 400);
    const attempt = await countTwoFactorAttempt(user.id);
    if (!attempt.allowed) {
      const reply = submission.reply({ fieldErrors: { code: ["Too many wrong codes. Please wait a few minutes."] } });
      return data({ result: reply, recoveryCodes: null }, 429);
    }
    const recoveryCodes = await finishEnrolment(user.id, submission.value.code);
    if (!recoveryCodes) {
      const reply = submission.reply({ fieldErrors: { code: [WRONG_CODE] }, hideFields: ["code"] });
      return data({ result: reply, recoveryCodes: null }, 400);
    }
    await forgetTwoFactorAttempts(user.id);
    return data({ result: null, recoveryCodes }, { headers: { "Cache-Control": "no-store" } });
  }
  const parsed = OtherIntent.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return data({ result: null, recoveryCodes: null }, 400);
  const { intent } = parsed.data;
  if (intent === "start") {
    if (await mustVerifyEmail(user.id)) return unverified();
    await startEnrolment(user.id, user.email);
    return redirectWithToast(here(), { description: "Scan the code with your authenticator app." });
  }
  if (!(await twoFactorStatus(user.id)).enabled)
    return redirectWithToast(here(), { description: "Two-factor is off." });
  if (intent === "recovery-codes") {
    return data(
      { result: null, recoveryCodes: await replaceRecoveryCodes(user.id) },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
  if (user.role === "admin" && getEnv().ADMIN_REQUIRE_2FA) {
    return redirectWithToast(here(), {
      type: "error",
      description: "Admins must keep two-factor authentication on here.",
    });
  }
  await disableTwoFactor(user.id);
  return redirectWithToast(here(), { description: "Two-factor authentication is off." });
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold text-slate-900">Your recovery codes</h2>
      <p className="text-sm text-slate-700">
        Keep these somewhere safe: each one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ul
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-2 rounded-md bg-slate-100 p-3 font-mono text-sm sm:grid-cols-5"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </Card>
  );
}

function EnrolForm({
  enrolment,
  lastResult,
}: {
  enrolment: { secret: string; qrSvg: string };
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "enrol",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EnrolSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold text-slate-900">Set up your authenticator app</h2>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).</li>
        <li>Or type the key below into the app by hand.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div
        role="img"
        aria-label="QR code for your authenticator app"
        className="h-48 w-48"
        dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
      />
      <div>
        <h3 id="manual-key-label" className="text-sm font-medium text-slate-700">
          Key
        </h3>
        <code
          aria-labelledby="manual-key-label"
          data-testid="manual-key"
          className="mt-1 block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all"
        >
          {enrolment.secret}
        </code>
      </div>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <input type="hidden" name="intent" value="confirm" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Code from the app"
          inputProps={{
            ...getInputProps(fields.code, { type: "text" }),
            inputMode: "numeric",
            autoComplete: "one-time-code",
          }}
          errors={fields.code.errors}
        />
        <Button type="submit" disabled={navigation.state === "submitting"}>
          Turn on two-factor
        </Button>
      </Form>
    </Card>
  );
}

function IntentButton({ intent, label, variant }: { intent: string; label: string; variant?: "danger" | "secondary" }) {
  const navigation = useNavigation();
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant={variant} disabled={navigation.state === "submitting"}>
        {label}
      </Button>
    </Form>
  );
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { status, enrolment, required, mustVerifyEmail } = loaderData;
  const recoveryCodes = actionData?.recoveryCodes ?? null;
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader subtitle="Account" title="Two-factor authentication" />
      <SecurityNav />
      {required && !status.enabled ? (
        <Notice tone="warning">
          <p role="alert">Admins must turn on two-factor authentication before using the rest of the site.</p>
        </Notice>
      ) : null}
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      {status.enabled ? (
        <Card className="space-y-4">
          <p className="text-slate-700">
            Two-factor authentication is <strong>on</strong>: signing in asks for a code from your app after your
            password. Recovery codes left: <span data-testid="recovery-codes-left">{status.recoveryCodesLeft}</span>.
          </p>
          <div className="flex flex-wrap gap-2">
            <IntentButton intent="recovery-codes" label="New recovery codes" variant="secondary" />
            {required ? null : <IntentButton intent="disable" label="Turn off two-factor" variant="danger" />}
          </div>
        </Card>
      ) : mustVerifyEmail ? (
        <VerifyEmailFirst before={VERIFY_BEFORE.twoFactor} />
      ) : enrolment ? (
        <EnrolForm enrolment={enrolment} lastResult={actionData?.result} />
      ) : (
        <Card className="space-y-4">
          <p className="text-slate-700">
            Two-factor authentication is <strong>off</strong>. With it on, signing in also asks for a code from an
            authenticator app on your phone, so a stolen password alone does not open your account.
          </p>
          <IntentButton intent="start" label="Set up two-factor" />
        </Card>
      )}
    </div>
  );
}
