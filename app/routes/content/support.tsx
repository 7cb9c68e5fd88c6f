import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, useLocation, useNavigation } from "react-router";
import { FormFailure, SubjectAndMessage } from "#app/components/content/support-fields.tsx";
import { SupportStatusBadge } from "#app/components/content/support-status-badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { listOwnSupportRequests, submitSupportRequest } from "#app/modules/support/requests.server.ts";
import { SUPPORT_ERROR, SUPPORT_FAILURE, SUPPORT_SUCCESS, SupportSchema } from "#app/modules/support/schemas.ts";
import { clientIp } from "#app/utils/http.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { unexpectedFormFailure } from "#app/web/unexpected-failure.server.ts";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = () => [{ title: "Support | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return {
    sender: { name: user.fullName, email: user.email },
    timeZone: user.timeZone,
    recent: await listOwnSupportRequests(user.id),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: SupportSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  let result;
  try {
    result = await submitSupportRequest({
      source: "support",
      userId: user.id,
      name: user.fullName,
      email: user.email,
      ...submission.value,
      ip: clientIp(request),
    });
  } catch (error) {
    return unexpectedFormFailure(submission, SUPPORT_ERROR, error);
  }
  if (result.status === "limited") {
    return data(submission.reply({ formErrors: [SUPPORT_FAILURE, result.error] }), { status: 429 });
  }
  return redirectWithToast(href("/sms/support"), { description: SUPPORT_SUCCESS });
}

function SupportForm({ lastResult }: { lastResult: Route.ComponentProps["actionData"] }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "support",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SupportSchema }),
    // Errors clear while typing: clearing them on blur shifts the button away under the pointer mid-click.
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
      <FormFailure id={form.errorId} errors={form.errors} />
      <SubjectAndMessage subject={fields.subject} message={fields.message} />
      <Button type="submit" disabled={navigation.state === "submitting"}>
        Submit
      </Button>
    </Form>
  );
}

export default function Support({ loaderData, actionData }: Route.ComponentProps) {
  // A new location after the success redirect gives a fresh, empty form.
  const location = useLocation();
  const { sender, recent, timeZone } = loaderData;
  return (
    <div>
      <PageHeader title="Support" />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <p className="mb-4 text-sm text-slate-600">
            Sending as <strong className="text-slate-900">{sender.name}</strong> (
            <span data-testid="sender-email">{sender.email}</span>). We answer at this address.
          </p>
          <SupportForm key={location.key} lastResult={actionData} />
        </Card>
        <Card className="self-start">
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Your recent requests</h2>
          {recent.length === 0 ? (
            <p className="text-sm text-slate-600">You have not sent any support requests yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {recent.map((r) => (
                <li key={r.id} className="py-2">
                  <div className="flex items-start justify-between gap-2">
                    <span className="text-sm font-medium break-words text-slate-900">{r.subject}</span>
                    <SupportStatusBadge status={r.status} />
                  </div>
                  <p className="text-xs text-slate-500">
                    {formatDateTime(r.createdAt, timeZone)} ({timeZone})
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
