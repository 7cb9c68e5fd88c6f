import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, href, Link } from "react-router";
import type { z } from "zod";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { CheckboxField, Field, FormErrors, SelectField } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { RowActionForm } from "#app/components/ui/row-action-form.tsx";
import { ActionsTh, LabelledCell, Table, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { UpstreamFormSchema } from "#app/modules/routing/admin-schemas.ts";
import { RoutingInputError, RoutingNotFoundError } from "#app/modules/routing/errors.ts";
import { liveUpstreamStates } from "#app/modules/sms/transports/upstream-stats.server.ts";
import { STATE_FRESH_MS, type UpstreamState } from "#app/modules/routing/routing.ts";
import {
  createUpstream,
  getUpstream,
  listUpstreams,
  setUpstreamEnabled,
  setUpstreamFailing,
  simulatorsAllowed,
  updateUpstream,
  type AdminUpstream,
} from "#app/modules/routing/upstreams.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { idOf, positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/upstreams";

export const meta: Route.MetaFunction = () => [{ title: "Upstreams | SMS Gateway" }];

const BACK = () => href("/admin/upstreams");

/** The row buttons' intents and what each does to the upstream. */
const TOGGLES = {
  disable: (id: number) => setUpstreamEnabled(id, false),
  enable: (id: number) => setUpstreamEnabled(id, true),
  fail: (id: number) => setUpstreamFailing(id, true),
  recover: (id: number) => setUpstreamFailing(id, false),
} as const;
// Own keys only: "toString" is `in` every object.
const isToggle = (intent: unknown): intent is keyof typeof TOGGLES =>
  typeof intent === "string" && Object.hasOwn(TOGGLES, intent);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const editId = positiveIntParam(new URL(request.url).searchParams, "edit");
  const editing = editId ? await getUpstream(editId).catch(notFoundFor) : null;
  // What the workers' heartbeats say of each upstream, summed over the live ones.
  const states = (await liveUpstreamStates()).map((state): [string, UpstreamState] => [
    state.id,
    {
      id: state.id,
      bindsUp: state.bindsUp,
      submitsPerSecond: state.submitsPerSecond,
      errorRate: state.errorRate,
      lastError: state.lastError === null ? null : { message: state.lastError, at: state.lastErrorAt ?? 0 },
    },
  ]);
  return {
    upstreams: await listUpstreams(),
    editing,
    states: Object.fromEntries(states),
    simulatorsAllowed: simulatorsAllowed(),
  };
}

function notFoundFor(error: unknown): never {
  if (error instanceof RoutingNotFoundError) throw notFound();
  throw error;
}

async function saveUpstream(formData: FormData) {
  const submission = parseWithZod(formData, { schema: UpstreamFormSchema });
  const failed = (reply: ReturnType<typeof submission.reply>) => data({ result: reply }, { status: 400 });
  if (submission.status !== "success") return failed(submission.reply({ hideFields: ["password"] }));
  const { intent, id, enabled, ...fields } = submission.value;
  const input = {
    ...fields,
    url: fields.url || null,
    systemId: fields.systemId || null,
    password: fields.password || undefined,
    sourceAddr: fields.sourceAddr || null,
    enabled: enabled === "on",
  };
  try {
    if (intent === "update" && id) await updateUpstream(id, input);
    else await createUpstream(input);
  } catch (error) {
    if (!(error instanceof RoutingInputError)) notFoundFor(error);
    return failed(submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields: ["password"] }));
  }
  return redirectWithToast(BACK(), { description: `Upstream ${input.name} saved.` });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "create" || intent === "update") return saveUpstream(formData);
  if (!isToggle(intent)) throw notFound();
  const upstream = await TOGGLES[intent](idOf(formData.get("id"))).catch(notFoundFor);
  const done = { disable: "disabled", enable: "enabled", fail: "now fails every submit", recover: "works again" };
  return redirectWithToast(BACK(), { description: `${upstream.name} ${done[intent]}.` });
}

const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%`;

function LiveState({ state }: { state: UpstreamState | undefined }) {
  if (!state) return <span className="text-slate-500">Not reported</span>;
  return (
    <div>
      <p>
        {formatNumber(state.bindsUp)} {state.bindsUp === 1 ? "bind" : "binds"} up ·{" "}
        {formatNumber(Math.round(state.submitsPerSecond))} submits/s · {percent(state.errorRate)} errors
      </p>
      {state.lastError ? (
        <p className="mt-1 text-xs text-red-700">
          Last error: {state.lastError.message} ({new Date(state.lastError.at).toISOString().slice(11, 19)} UTC)
        </p>
      ) : null}
    </div>
  );
}

function Connection({ upstream }: { upstream: AdminUpstream }) {
  if (upstream.kind === "simulator") return <span>Simulator (reaches no phone)</span>;
  return (
    <span className="break-all">
      {upstream.url} as {upstream.systemId}
    </span>
  );
}

function RowActions({ upstream, simulators }: { upstream: AdminUpstream; simulators: boolean }) {
  if (upstream.fromEnvironment)
    return <span className="text-xs text-slate-600">Set by SMS_TRANSPORT and SMPP_* (read-only)</span>;
  const id = Number(upstream.id);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Link to={`${BACK()}?edit=${upstream.id}`} className="text-sm">
        Edit <span className="sr-only">{upstream.name}</span>
      </Link>
      <RowActionForm
        intent={upstream.enabled ? "disable" : "enable"}
        id={id}
        label={upstream.enabled ? "Disable" : "Enable"}
        target={upstream.name}
      />
      {upstream.kind === "simulator" && simulators ? (
        <RowActionForm
          intent={upstream.failing ? "recover" : "fail"}
          id={id}
          label={upstream.failing ? "Stop failing" : "Make it fail"}
          target={upstream.name}
        />
      ) : null}
    </div>
  );
}

type Editing = Route.ComponentProps["loaderData"]["editing"];

function UpstreamForm({
  editing,
  simulators,
  lastResult,
}: {
  editing: Editing;
  simulators: boolean;
  lastResult: unknown;
}) {
  const [form, fields] = useForm<z.input<typeof UpstreamFormSchema>, z.output<typeof UpstreamFormSchema>>({
    id: editing ? `upstream-${editing.id}` : "new-upstream",
    lastResult: lastResult as never,
    shouldValidate: "onSubmit",
    defaultValue: editing
      ? {
          ...editing,
          url: editing.url ?? "",
          systemId: editing.systemId ?? "",
          sourceAddr: editing.sourceAddr ?? "",
          binds: String(editing.binds),
          window: String(editing.window),
          tps: String(editing.tps),
          enabled: editing.enabled ? "on" : undefined,
        }
      : { kind: "smpp", binds: "1", window: "10", tps: "100", enabled: "on" },
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">{editing ? `Edit ${editing.name}` : "Add an upstream"}</h2>
      <Form method="post" className="mt-3 space-y-3" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Name"
            inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
            errors={fields.name.errors}
          />
          <SelectField label="Kind" selectProps={getSelectProps(fields.kind)} errors={fields.kind.errors}>
            <option value="smpp">SMPP</option>
            {simulators || editing?.kind === "simulator" ? (
              <option value="simulator">Simulator (test mode)</option>
            ) : null}
          </SelectField>
          <Field
            className="sm:col-span-2"
            label="SMSC address"
            help="smpp://host:port, or ssmpp://host:port for TLS. Not used by a simulator."
            inputProps={{ ...getInputProps(fields.url, { type: "text" }), autoComplete: "off" }}
            errors={fields.url.errors}
          />
          <Field
            label="System id"
            inputProps={{ ...getInputProps(fields.systemId, { type: "text" }), autoComplete: "off" }}
            errors={fields.systemId.errors}
          />
          <Field
            label="Password"
            help={editing?.hasPassword ? "Stored sealed. Leave blank to keep it." : "Stored sealed, never shown again."}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password.errors}
          />
          <Field
            label="Binds"
            help="SMPP sessions each worker opens."
            inputProps={{ ...getInputProps(fields.binds, { type: "number" }), min: 1, max: 32 }}
            errors={fields.binds.errors}
          />
          <Field
            label="Window"
            help="Submits in flight per bind."
            inputProps={{ ...getInputProps(fields.window, { type: "number" }), min: 1, max: 1000 }}
            errors={fields.window.errors}
          />
          <Field
            label="TPS"
            help="Submits per second across every worker; 0 for no limit."
            inputProps={{ ...getInputProps(fields.tps, { type: "number" }), min: 0, max: 10000 }}
            errors={fields.tps.errors}
          />
          <Field
            label="Default source address"
            help="For accounts without a sender of their own; empty: SMPP_SOURCE_ADDR."
            inputProps={{ ...getInputProps(fields.sourceAddr, { type: "text" }), autoComplete: "off" }}
            errors={fields.sourceAddr.errors}
          />
          <CheckboxField
            className="sm:col-span-2"
            label="Enabled: routes send through it"
            inputProps={getInputProps(fields.enabled, { type: "checkbox" })}
            errors={fields.enabled.errors}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value={editing ? "update" : "create"}>
            {editing ? "Save upstream" : "Add upstream"}
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

export default function AdminUpstreams({ loaderData, actionData }: Route.ComponentProps) {
  const { upstreams, editing, states, simulatorsAllowed: simulators } = loaderData;
  const reported = Object.keys(states).length > 0;
  return (
    <div className="space-y-6">
      <PageHeader title="Upstreams" subtitle="The SMSCs messages leave through" />
      <p className="text-sm text-slate-700">
        Which upstream a message takes is decided by its destination on <Link to={href("/admin/routes")}>Routes</Link>;
        with no route, everything goes through <strong>default</strong>, the environment&apos;s upstream.
      </p>
      {simulators ? (
        <Notice>
          Test mode: simulated upstreams reach no phone. Make one fail and send through a route that lists it first to
          see messages move to the next upstream.
        </Notice>
      ) : null}
      {reported ? null : (
        <Notice tone="warning">
          No worker has reported in the last {STATE_FRESH_MS / 1000} seconds: the live state shows here while a worker
          runs.
        </Notice>
      )}
      <Table>
        <caption className="sr-only">Upstreams, the environment&apos;s first</caption>
        <thead className="hidden sm:table-header-group">
          <tr>
            <Th>Upstream</Th>
            <Th>Connection</Th>
            <Th>Binds · window · TPS</Th>
            <Th>Live</Th>
            <ActionsTh />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {upstreams.map((upstream) => (
            <tr key={upstream.id} data-testid="upstream-row" className="block py-2 sm:table-row sm:py-0">
              <LabelledCell label="Upstream">
                <p className="font-medium break-all">{upstream.name}</p>
                <div className="mt-1 flex flex-wrap gap-1">
                  {upstream.enabled ? null : <Badge tone="secondary">Disabled</Badge>}
                  {upstream.failing ? <Badge tone="danger">Failing</Badge> : null}
                </div>
              </LabelledCell>
              <LabelledCell label="Connection">
                <Connection upstream={upstream} />
              </LabelledCell>
              <LabelledCell label="Binds · window · TPS">
                {/* A simulator opens no bind: the SMPP_* numbers (of the environment's row) would say otherwise. */}
                {upstream.kind === "simulator"
                  ? "None (simulated)"
                  : `${upstream.binds} · ${upstream.window} · ${upstream.tps === 0 ? "no limit" : upstream.tps}`}
              </LabelledCell>
              <LabelledCell label="Live">
                <LiveState state={states[upstream.id]} />
              </LabelledCell>
              <LabelledCell label="Actions">
                <RowActions upstream={upstream} simulators={simulators} />
              </LabelledCell>
            </tr>
          ))}
        </tbody>
      </Table>
      {/* Keyed by the list: after a save the form starts empty, with JavaScript too (no reload). */}
      <UpstreamForm
        key={editing?.id ?? `new-after-${upstreams.length}`}
        editing={editing}
        simulators={simulators}
        lastResult={(actionData as { result?: unknown } | undefined)?.result}
      />
    </div>
  );
}
