import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, href, Link } from "react-router";
import type { z } from "zod";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Field, FormErrors, SelectField } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { RowActionForm } from "#app/components/ui/row-action-form.tsx";
import { ActionsTh, LabelledCell, Table, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { RouteFormSchema } from "#app/modules/routing/admin-schemas.ts";
import { RoutingInputError, RoutingNotFoundError } from "#app/modules/routing/errors.ts";
import { deleteRoute, dryRunRoute, getRoute, listRoutes, saveRoute } from "#app/modules/routing/routes.server.ts";
import {
  DEFAULT_PREFIX,
  displayPrefix,
  ENV_UPSTREAM,
  formatCostMicros,
  MAX_ROUTE_UPSTREAMS,
  routableNumber,
} from "#app/modules/routing/routing.ts";
import { listUpstreams } from "#app/modules/routing/upstreams.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { idOf, positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/routes";

export const meta: Route.MetaFunction = () => [{ title: "Routes | SMS Gateway" }];

const BACK = () => href("/admin/routes");

function notFoundFor(error: unknown): never {
  if (error instanceof RoutingNotFoundError) throw notFound();
  throw error;
}

/** The dry run's answer for `?to=`: where a message there would go, or why the number is not one. */
async function dryRun(to: string | null) {
  if (to === null) return null;
  const e164 = routableNumber(to, getEnv().DEFAULT_COUNTRY);
  if (!e164)
    return {
      to,
      error: `"${to.trim()}" is not a phone number: write it in international format, e.g. +44 7700 900123`,
    };
  return { to, e164, ...(await dryRunRoute(e164)) };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const editId = positiveIntParam(params, "edit");
  const upstreams = await listUpstreams();
  return {
    routes: await listRoutes(upstreams),
    upstreams: upstreams.map(({ id, name, enabled }) => ({ id, name, enabled })),
    editing: editId ? await getRoute(editId).catch(notFoundFor) : null,
    dryRun: await dryRun(params.get("to")),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") {
    const route = await deleteRoute(idOf(formData.get("id"))).catch(notFoundFor);
    return redirectWithToast(BACK(), { description: `Route ${displayPrefix(route.prefix)} deleted.` });
  }
  const submission = parseWithZod(formData, { schema: RouteFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { id, prefix, slots } = submission.value;
  const upstreams = slots.flatMap(({ upstream, weight, cost }) =>
    upstream ? [{ upstreamId: upstream, weight: weight ?? null, costMicros: cost }] : [],
  );
  try {
    await saveRoute(id, { prefix, upstreams });
  } catch (error) {
    if (!(error instanceof RoutingInputError)) notFoundFor(error);
    // A slot's error names the slot among the filled ones: point it at the slot as the form shows it.
    const filled = slots.flatMap((slot, index) => (slot.upstream ? [index] : []));
    const field = error.field.replace(/^slots\[(\d+)\]/, (_, n: string) => `slots[${filled[Number(n)]}]`);
    return data({ result: submission.reply({ fieldErrors: { [field]: [error.message] } }) }, { status: 400 });
  }
  return redirectWithToast(BACK(), { description: `Route ${displayPrefix(prefix)} saved.` });
}

type LoaderData = Route.ComponentProps["loaderData"];

function RouteForm({
  editing,
  upstreams,
  lastResult,
}: {
  editing: LoaderData["editing"];
  upstreams: LoaderData["upstreams"];
  lastResult: unknown;
}) {
  const filled =
    editing?.upstreams.map((u) => ({
      upstream: u.upstreamId,
      weight: u.weight === null ? "" : String(u.weight),
      cost: u.costMicros ? formatCostMicros(u.costMicros).slice(1) : "",
    })) ?? [];
  const slots = [...filled, ...Array.from({ length: MAX_ROUTE_UPSTREAMS - filled.length }, () => ({}))];
  const [form, fields] = useForm<z.input<typeof RouteFormSchema>, z.output<typeof RouteFormSchema>>({
    id: editing ? `route-${editing.id}` : "new-route",
    lastResult: lastResult as never,
    shouldValidate: "onSubmit",
    defaultValue: { prefix: editing ? displayPrefix(editing.prefix) : "", slots },
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">
        {editing ? `Edit route ${displayPrefix(editing.prefix)}` : "Add a route"}
      </h2>
      <Form method="post" className="mt-3 space-y-4" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field
          label="Destination prefix"
          help="The start of an E.164 number (+44, +447700); * for every destination no other route matches. The longest match wins."
          inputProps={{ ...getInputProps(fields.prefix, { type: "text" }), autoComplete: "off", inputMode: "tel" }}
          errors={fields.prefix.errors}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Upstreams, in the order tried</legend>
          <p className="mt-1 text-xs text-slate-500">
            A message moves to the next one only when the one before provably did not take it. Weights share the first
            attempts among the weighted upstreams. Cost: what the upstream charges per segment to this prefix, in USD.
          </p>
          <FormErrors errors={fields.slots.errors} />
          <ol className="mt-2 space-y-3">
            {fields.slots.getFieldList().map((slot, index) => {
              const slotFields = slot.getFieldset();
              return (
                <li key={slot.key} className="grid gap-2 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_minmax(0,3fr)]">
                  <SelectField
                    label={`Upstream ${index + 1}`}
                    selectProps={getSelectProps(slotFields.upstream)}
                    errors={slotFields.upstream.errors}
                  >
                    <option value="">None</option>
                    {upstreams.map((upstream) => (
                      <option key={upstream.id} value={upstream.id}>
                        {upstream.name}
                        {upstream.enabled ? "" : " (disabled)"}
                      </option>
                    ))}
                  </SelectField>
                  <Field
                    label={`Weight ${index + 1}`}
                    inputProps={{ ...getInputProps(slotFields.weight, { type: "number" }), min: 1, max: 1000 }}
                    errors={slotFields.weight.errors}
                  />
                  <Field
                    label={`Cost per segment ${index + 1}`}
                    inputProps={{ ...getInputProps(slotFields.cost, { type: "text" }), inputMode: "decimal" }}
                    errors={slotFields.cost.errors}
                  />
                </li>
              );
            })}
          </ol>
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save">
            {editing ? "Save route" : "Add route"}
          </Button>
          {editing ? (
            <ButtonLink to={BACK()} variant="secondary">
              Cancel
            </ButtonLink>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

function DryRun({ result }: { result: LoaderData["dryRun"] }) {
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Dry run</h2>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-2">
        <Field
          className="min-w-56 flex-1"
          label="Where would a message to this number go?"
          inputProps={{ name: "to", type: "tel", defaultValue: result?.to ?? "", placeholder: "+44 7700 900123" }}
          errors={result && "error" in result ? [result.error] : undefined}
        />
        <Button type="submit">Check</Button>
      </Form>
      {result && "e164" in result ? (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="dry-run">
          <dt className="font-medium text-slate-600">Destination</dt>
          <dd>{result.e164}</dd>
          <dt className="font-medium text-slate-600">Route</dt>
          <dd>
            {displayPrefix(result.prefix)}
            {result.prefix === DEFAULT_PREFIX ? " (every other destination)" : null}
          </dd>
          <dt className="font-medium text-slate-600">Upstreams</dt>
          <dd>
            <ol className="list-decimal space-y-1 pl-5">
              {result.upstreams.map((upstream) => (
                <li key={upstream.id}>
                  {upstream.name}: {formatCostMicros(upstream.costMicros)} per segment
                  {upstream.weight === null ? null : `, weight ${upstream.weight}`}
                </li>
              ))}
            </ol>
          </dd>
          <dt className="font-medium text-slate-600">Price</dt>
          <dd>
            {result.creditsPerSegment} {result.creditsPerSegment === 1 ? "credit" : "credits"} per segment
            {result.revenueMicros === null || result.revenuePerCreditMicros === null
              ? null
              : `: ${formatCostMicros(result.revenueMicros)} at ${formatCostMicros(result.revenuePerCreditMicros)} a credit`}
          </dd>
          <dt className="font-medium text-slate-600">Margin</dt>
          <dd data-testid="dry-run-margin">
            {result.marginMicros === null
              ? "Unknown: no credits sold yet, so what a credit brings in is not known"
              : `${formatCostMicros(result.marginMicros)} per segment through ${result.upstreams[0]?.name}`}
          </dd>
        </dl>
      ) : null}
    </Card>
  );
}

function UpstreamList({ route }: { route: LoaderData["routes"][number] }) {
  return (
    <ol className="list-decimal space-y-1 pl-5">
      {route.upstreams.map((upstream) => (
        <li key={upstream.upstreamId}>
          <span className="font-medium">{upstream.name}</span> {formatCostMicros(upstream.costMicros)} per segment
          {upstream.weight === null ? null : `, weight ${upstream.weight}`}{" "}
          {upstream.enabled ? null : <Badge tone="secondary">Disabled: skipped</Badge>}
        </li>
      ))}
    </ol>
  );
}

export default function AdminRoutes({ loaderData, actionData }: Route.ComponentProps) {
  const { routes, upstreams, editing, dryRun } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title="Routes" subtitle="Which upstreams each destination goes through" />
      <p className="text-sm text-slate-700">
        The longest prefix that starts a number wins; * catches the rest. Without a * route, every other destination
        goes through <strong>{ENV_UPSTREAM.name}</strong>, the environment&apos;s upstream. Manage upstreams on{" "}
        <Link to={href("/admin/upstreams")}>Upstreams</Link>.
      </p>
      {routes.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No routes yet: every destination goes through {ENV_UPSTREAM.name}.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Routes, the default first, then by prefix</caption>
          <thead className="hidden sm:table-header-group">
            <tr>
              <Th>Prefix</Th>
              <Th>Upstreams in order, cost per segment</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {routes.map((route) => (
              <tr key={route.id} data-testid="route-row" className="block py-2 sm:table-row sm:py-0">
                <LabelledCell label="Prefix" className="font-medium whitespace-nowrap">
                  {displayPrefix(route.prefix)}
                </LabelledCell>
                <LabelledCell label="Upstreams">
                  <UpstreamList route={route} />
                </LabelledCell>
                <LabelledCell label="Actions">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={`${BACK()}?edit=${route.id}`} className="text-sm">
                      Edit <span className="sr-only">route {displayPrefix(route.prefix)}</span>
                    </Link>
                    <RowActionForm
                      intent="delete"
                      id={route.id}
                      label="Delete"
                      target={`route ${displayPrefix(route.prefix)}`}
                    />
                  </div>
                </LabelledCell>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        {/* Keyed by the list: after a save the form starts empty, with JavaScript too (no reload). */}
        <RouteForm
          key={editing?.id ?? `new-after-${routes.length}`}
          editing={editing}
          upstreams={upstreams}
          lastResult={(actionData as { result?: unknown } | undefined)?.result}
        />
        <DryRun result={dryRun} />
      </div>
    </div>
  );
}
