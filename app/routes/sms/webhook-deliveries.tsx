import { Form, href, Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { RowActionForm } from "#app/components/ui/row-action-form.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { SecretPanel } from "#app/components/webhook-secret.tsx";
import { ActionsTh, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireRecentSignIn, requireUser } from "#app/routes/auth/guards.server.ts";
import { endpointAction } from "#app/routes/sms/webhook-deliveries.server.ts";
import { listDeliveries } from "#app/modules/webhooks/deliveries.server.ts";
import { getEndpoint, revealEndpointSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { WebhookNotFoundError } from "#app/modules/webhooks/errors.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { positiveInt } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/webhook-deliveries";

export const meta: Route.MetaFunction = () => [{ title: "Webhook deliveries | SMS Gateway" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const showSecret = new URL(request.url).searchParams.get("secret") === "show";
  // Showing the secret again is a recent sign-in's, as showing an API key is (decision 103).
  const user = showSecret ? await requireRecentSignIn(request) : await requireUser(request);
  const id = positiveInt(params.id);
  if (!id) throw notFound();
  try {
    const endpoint = await getEndpoint(user.id, id);
    const deliveries = (await listDeliveries(user.id, id)).map((d) => ({
      id: d.id,
      eventId: d.eventId,
      type: d.type,
      status: d.status,
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      lastDurationMs: d.lastDurationMs,
      lastAnswer: d.lastAnswer,
      createdAt: d.createdAt.getTime(),
    }));
    return {
      endpoint: { id: endpoint.id, url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled },
      disabledReason: endpoint.disabledReason,
      secret: showSecret ? await revealEndpointSecret(user.id, id) : null,
      deliveries,
      timeZone: user.timeZone,
    };
  } catch (error) {
    if (error instanceof WebhookNotFoundError) throw notFound();
    throw error;
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const id = positiveInt(params.id);
  if (!id) throw notFound();
  return endpointAction(user.id, id, await request.formData());
}

const STATUS_TONES = { delivered: "success", pending: "warning", failed: "danger" } as const;

/** A refused test event or redelivery, said where its button is. */
function Refusal({ actionData, intent }: { actionData: Route.ComponentProps["actionData"]; intent: string }) {
  if (!actionData || actionData.intent !== intent) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {actionData.error}.
    </p>
  );
}

export default function WebhookDeliveries({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoint, disabledReason, deliveries, timeZone, secret } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title="Webhook deliveries" subtitle={endpoint.url} />
      <p className="text-sm">
        <Link to={href("/sms/webhooks")}>Back to Webhooks</Link>
      </p>
      {secret ? <SecretPanel what={`The signing secret of ${endpoint.url}`} value={secret} /> : null}
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">This endpoint</h2>
        <p className="mt-1 text-sm text-slate-700">
          Events: {endpoint.events.join(", ")}.{" "}
          <Badge tone={endpoint.enabled ? "success" : "neutral"}>{endpoint.enabled ? "On" : "Off"}</Badge>
        </p>
        {disabledReason ? <p className="mt-1 text-sm text-red-700">{disabledReason}</p> : null}
        <Form method="post" className="mt-3 flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="test">
            Send test event
          </Button>
          <Button type="submit" name="intent" value={endpoint.enabled ? "disable" : "enable"} variant="secondary">
            {endpoint.enabled ? "Turn off" : "Turn on"}
          </Button>
          <Button type="submit" name="intent" value="rotate" variant="secondary">
            New signing secret
          </Button>
          <Button type="submit" name="intent" value="delete" variant="danger">
            Delete endpoint
          </Button>
        </Form>
        <div className="mt-2">
          <Refusal actionData={actionData} intent="test" />
        </div>
      </Card>
      <h2 className="text-lg font-semibold text-slate-900">Delivery log</h2>
      <Refusal actionData={actionData} intent="redeliver" />
      {deliveries.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          Nothing sent to this endpoint yet.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Deliveries to this endpoint, newest first</caption>
          <thead>
            <tr>
              <Th>Time ({timeZone})</Th>
              <Th>Event</Th>
              <Th>Status code</Th>
              <Th>Duration</Th>
              <Th>Attempts</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {deliveries.map((d) => (
              <tr key={d.id} data-testid="delivery-row">
                <Td className="whitespace-nowrap">{formatDateTime(d.createdAt, timeZone)}</Td>
                <Td>
                  <code>{d.type}</code>
                  <div className="text-xs text-slate-500">{d.eventId}</div>
                </Td>
                <Td>
                  <Badge tone={STATUS_TONES[d.status]}>{d.lastStatusCode ?? d.status}</Badge>
                  {d.lastAnswer && d.status !== "delivered" ? (
                    <div className="max-w-xs truncate text-xs text-slate-500" title={d.lastAnswer}>
                      {d.lastAnswer}
                    </div>
                  ) : null}
                </Td>
                <Td>{d.lastDurationMs === null ? "–" : `${d.lastDurationMs} ms`}</Td>
                <Td>{d.attempts}</Td>
                <Td>
                  <RowActionForm
                    intent="redeliver"
                    id={d.id}
                    idField="deliveryId"
                    label="Redeliver"
                    target={d.eventId}
                  />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
