import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, href, Link } from "react-router";
import { VerifyEmailFirst } from "#app/components/account/verify-email-first.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { SecretPanel } from "#app/components/webhook-secret.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireRecentSignIn, requireUser } from "#app/routes/auth/guards.server.ts";
import { addWebhookAction } from "#app/routes/sms/webhooks.server.ts";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { VERIFY_BEFORE } from "#app/modules/accounts/verify-first.ts";
import { listEndpoints, revealCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES } from "#app/modules/webhooks/event-types.ts";
import { allowsHttp } from "#app/modules/webhooks/targets.server.ts";
import type { Route } from "./+types/webhooks";

export const meta: Route.MetaFunction = () => [{ title: "Webhooks | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const showCallback = new URL(request.url).searchParams.get("callback") === "show";
  // Showing the secret again is a recent sign-in's, as showing an API key is (decision 103).
  const user = showCallback ? await requireRecentSignIn(request) : await requireUser(request);
  const endpoints = (await listEndpoints(user.id)).map((e) => ({
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
  }));
  const callbackSecret = showCallback ? await revealCallbackSecret(user.id) : null;
  return { endpoints, httpAllowed: allowsHttp(), callbackSecret, mustVerifyEmail: await mustVerifyEmail(user.id) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return addWebhookAction(user.id, await request.formData());
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoints, httpAllowed, callbackSecret, mustVerifyEmail } = loaderData;
  const [form, fields] = useForm({ id: "add-webhook", lastResult: actionData, shouldValidate: "onSubmit" });
  const eventErrorId = "webhook-events-error";
  return (
    <div className="space-y-6">
      <PageHeader title="Webhooks" subtitle="Your messages' events, pushed to your server" />
      <p className="text-sm text-slate-700">
        Each event is POSTed as JSON to your URL, signed with the Standard Webhooks headers (<code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). A delivery that does not get a 2xx answer is
        retried for up to a day; order is not promised, so keep the newest <code>updatedAt</code>.
      </p>
      {callbackSecret ? <SecretPanel what="Your statusCallback secret" value={callbackSecret} /> : null}
      {mustVerifyEmail ? (
        <VerifyEmailFirst before={VERIFY_BEFORE.webhooks} />
      ) : (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Add an endpoint</h2>
          <Form method="post" className="mt-3 space-y-4" {...getFormProps(form)} noValidate>
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field
              label="URL"
              help={httpAllowed ? "https:// (or http:// in test mode)" : "https:// only"}
              inputProps={{ ...getInputProps(fields.url, { type: "url" }), autoComplete: "off" }}
              errors={fields.url.errors}
            />
            <fieldset aria-describedby={fields.events.errors ? eventErrorId : undefined}>
              <legend className="text-sm font-medium text-slate-700">Events</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {WEBHOOK_EVENT_TYPES.map((type) => (
                  <div key={type} className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      id={`event-${type}`}
                      name="events"
                      value={type}
                      className="h-4 w-4 rounded border-slate-300"
                    />
                    <label htmlFor={`event-${type}`} className="text-sm text-slate-700">
                      <code>{type}</code>: {WEBHOOK_EVENT_LABELS[type]}
                    </label>
                  </div>
                ))}
              </div>
              <ErrorList id={eventErrorId} errors={fields.events.errors} />
            </fieldset>
            <div className="flex items-center gap-2">
              <input
                type="checkbox"
                id="webhook-enabled"
                name="enabled"
                value="on"
                defaultChecked
                className="h-4 w-4 rounded border-slate-300"
              />
              <label htmlFor="webhook-enabled" className="text-sm text-slate-700">
                Enabled
              </label>
            </div>
            <Button type="submit" name="intent" value="add">
              Add endpoint
            </Button>
          </Form>
        </Card>
      )}
      {endpoints.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No endpoints yet.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Your webhook endpoints, newest first</caption>
          <thead>
            <tr>
              <Th>URL</Th>
              <Th>Events</Th>
              <Th>State</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {endpoints.map((e) => (
              <tr key={e.id} data-testid="webhook-row">
                <Td className="break-all">
                  <Link to={href("/sms/webhooks/:id", { id: String(e.id) })}>{e.url}</Link>
                </Td>
                <Td>{e.events.join(", ")}</Td>
                <Td>
                  <Badge tone={e.enabled ? "success" : "neutral"}>{e.enabled ? "On" : "Off"}</Badge>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">statusCallback secret</h2>
        <p className="mt-1 text-sm text-slate-700">
          A message sent with <code>statusCallback</code> on <code>POST /api/v1/messages</code> gets its events at that
          URL, signed with your account's callback secret. Make a new one to see it (the old one stops at once).
        </p>
        {mustVerifyEmail ? null : (
          <Form method="post" className="mt-3">
            <Button type="submit" name="intent" value="rotate-callback" variant="secondary">
              New callback secret
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
