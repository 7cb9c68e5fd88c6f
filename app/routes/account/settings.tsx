import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { ResendVerificationButton } from "#app/components/account/resend-verification.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors, SelectField } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { EmailChangeSchema, ProfileSchema, SETTINGS_INTENT } from "#app/modules/accounts/schemas.ts";
import { getAccountSettings, requestEmailChange, updateProfile } from "#app/modules/accounts/settings.server.ts";
import { QuietHoursForm } from "#app/components/quiet-hours/quiet-hours-form.tsx";
import { QUIET_HOURS_INTENT, QuietHoursSchema } from "#app/modules/quiet-hours/schemas.ts";
import { getQuietHours, saveQuietHours } from "#app/modules/quiet-hours/quiet-hours.server.ts";
import { formatTimeOfDay } from "#app/modules/quiet-hours/window.ts";
import { timeZoneNames } from "#app/utils/time-zone.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const settings = await getAccountSettings(user.id);
  if (!settings) throw notFound();
  return { settings, timeZones: timeZoneNames(), quietHours: await getQuietHours(user.id) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  if (formData.get("intent") === QUIET_HOURS_INTENT) return saveQuietHoursForm(user.id, formData);
  if (formData.get("intent") === SETTINGS_INTENT.email) {
    const submission = parseWithZod(formData, { schema: EmailChangeSchema });
    const hideFields = ["currentPassword"];
    if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
    const result = await requestEmailChange(user.id, submission.value);
    if (!result.ok) {
      const errors = result.field
        ? { fieldErrors: { [result.field]: [result.error] } }
        : { formErrors: [result.error] };
      return data(submission.reply({ ...errors, hideFields }), { status: result.status });
    }
    return redirectWithToast(href("/account/settings"), {
      description: `We have e-mailed a link to ${submission.value.newEmail}. Your address changes when you open it.`,
    });
  }
  const submission = parseWithZod(formData, { schema: ProfileSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { fullName, timeZone, lowBalanceThreshold } = submission.value;
  await updateProfile(user.id, { fullName, timeZone, lowBalanceThreshold: lowBalanceThreshold ?? null });
  return redirectWithToast(href("/account/settings"), { description: "Settings saved." });
}

async function saveQuietHoursForm(userId: number, formData: FormData) {
  const submission = parseWithZod(formData, { schema: QuietHoursSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { enabled, start, end } = submission.value;
  await saveQuietHours(userId, { enabled, startMinute: start, endMinute: end });
  const description = enabled
    ? `Quiet hours on: ${formatTimeOfDay(start)}-${formatTimeOfDay(end)} in each recipient's local time.`
    : "Quiet hours off.";
  return redirectWithToast(href("/account/settings"), { description });
}

function ProfileForm({
  settings,
  timeZones,
  lastResult,
}: Pick<Route.ComponentProps["loaderData"], "settings" | "timeZones"> & { lastResult: unknown }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "profile",
    lastResult: lastResult as never,
    defaultValue: {
      fullName: settings.fullName,
      timeZone: settings.timeZone,
      lowBalanceThreshold: settings.lowBalanceThreshold?.toString() ?? "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold text-slate-900">Profile</h2>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <input type="hidden" name="intent" value={SETTINGS_INTENT.profile} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label="Full Name"
          inputProps={{ ...getInputProps(fields.fullName, { type: "text" }), autoComplete: "name" }}
          errors={fields.fullName.errors}
        />
        <SelectField
          label="Time Zone"
          selectProps={getSelectProps(fields.timeZone)}
          errors={fields.timeZone.errors}
          help="Every date and time on the site is shown in this zone."
        >
          {timeZones.map((name) => (
            <option key={name} value={name}>
              {name.replaceAll("_", " ")}
            </option>
          ))}
        </SelectField>
        <Field
          label="Low-balance alert (credits)"
          inputProps={{
            ...getInputProps(fields.lowBalanceThreshold, { type: "number" }),
            min: 1,
            inputMode: "numeric",
          }}
          errors={fields.lowBalanceThreshold.errors}
          help="We e-mail you once when your balance falls below this, and again only after it has been above it. Empty: no alert."
        />
        <Button type="submit" disabled={navigation.state === "submitting"}>
          Save Settings
        </Button>
      </Form>
    </Card>
  );
}

function EmailForm({
  settings,
  lastResult,
}: Pick<Route.ComponentProps["loaderData"], "settings"> & { lastResult: unknown }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "email-change",
    lastResult: lastResult as never,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EmailChangeSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Card>
      <h2 className="mb-2 text-lg font-semibold text-slate-900">E-mail address</h2>
      <p className="mb-4 text-sm text-slate-700">
        You sign in with <strong>{settings.email}</strong>
        {settings.emailVerified ? "." : " (not verified yet)."}
      </p>
      {settings.emailVerified ? null : (
        <Notice tone="warning" className="mb-4">
          <p className="mb-2">Open the link we e-mailed you to verify this address.</p>
          <ResendVerificationButton redirectTo={href("/account/settings")} />
        </Notice>
      )}
      {settings.pendingEmail ? (
        <Notice className="mb-4">
          Waiting for you to open the link we sent to <strong>{settings.pendingEmail}</strong>.
        </Notice>
      ) : null}
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <input type="hidden" name="intent" value={SETTINGS_INTENT.email} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label="New E-mail"
          inputProps={{ ...getInputProps(fields.newEmail, { type: "email" }), autoComplete: "email" }}
          errors={fields.newEmail.errors}
          help="We e-mail a link to the new address; the change happens when you open it. Your current address is told."
        />
        <Field
          label="Current Password"
          inputProps={{
            ...getInputProps(fields.currentPassword, { type: "password" }),
            autoComplete: "current-password",
          }}
          errors={fields.currentPassword.errors}
        />
        <Button type="submit" disabled={navigation.state === "submitting"}>
          Change E-mail
        </Button>
      </Form>
    </Card>
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const intent = actionData?.initialValue?.intent;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        subtitle="Your account"
        title="Settings"
        actions={<Link to={href("/account/password")}>Change password</Link>}
      />
      <ProfileForm
        settings={loaderData.settings}
        timeZones={loaderData.timeZones}
        lastResult={intent === SETTINGS_INTENT.profile ? actionData : undefined}
      />
      <QuietHoursForm
        setting={loaderData.quietHours}
        lastResult={intent === QUIET_HOURS_INTENT ? actionData : undefined}
      />
      <EmailForm
        settings={loaderData.settings}
        lastResult={intent === SETTINGS_INTENT.email ? actionData : undefined}
      />
    </div>
  );
}
