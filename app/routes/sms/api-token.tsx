import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { data, Form, href, Link, useActionData, useLocation, useNavigation } from "react-router";
import { z } from "zod";
import { SecurityNav } from "#app/components/account/security-nav.tsx";
import { VerifyEmailFirst } from "#app/components/account/verify-email-first.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { BackButton } from "#app/components/ui/back-button.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList, Field } from "#app/components/ui/field.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { KeyRevocationError, regenerateApiKey, revokeApiKey } from "#app/api/auth.server.ts";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { VERIFY_BEFORE, verifyFirstMessage } from "#app/modules/accounts/verify-first.ts";
import { ApiKeyNotFoundError, insertApiKey, listOwnApiKeys, maskApiKey } from "#app/modules/api-keys/keys.server.ts";
import { API_SCOPES, SCOPE_LABELS } from "#app/modules/api-keys/scopes.ts";
import { NewApiKeySchema } from "#app/modules/auth/security-schemas.ts";
import { QuotaExceededError } from "#app/modules/quotas/quotas.server.ts";
import { requireRecentSignIn, requireUser } from "#app/routes/auth/guards.server.ts";
import { log } from "#app/utils/log.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/api-token";

export const meta: Route.MetaFunction = () => [{ title: "API Token | SMS Gateway" }];

const ERROR_FETCHING = "Error fetching user";
const CHANGE_FAILED = "The key could not be changed right now, so it still works as before. Please try again.";
const KeyId = z.coerce.number().int().positive();
const KeyIntent = z.discriminatedUnion("intent", [
  // Without a key id: the first key (or a first key with every scope), as before keys had names.
  z.object({ intent: z.literal("regenerate"), keyId: KeyId.optional() }),
  z.object({ intent: z.literal("revoke"), keyId: KeyId }),
]);
const ConfirmParams = z.object({ confirm: z.enum(["regenerate", "revoke"]), key: KeyId });

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const show = params.has("show") ? Number(params.get("show")) : null;
  // Showing a key in clear is a sensitive action: the password, or a recent sign-in.
  const user = show === null ? await requireUser(request) : await requireRecentSignIn(request);
  const confirm = ConfirmParams.safeParse(Object.fromEntries(params));
  const apiKeys = (await listOwnApiKeys(user.id)).map((own) => {
    if (own.key === null) log("error", "api", `API key ${own.id} of user ${user.id} could not be read`);
    return {
      id: own.id,
      name: own.name,
      scopes: own.scopes.map((scope) => SCOPE_LABELS[scope]),
      masked: own.key === null ? null : maskApiKey(own.key),
      key: own.key !== null && show === own.id ? own.key : null,
      createdAt: own.createdAt.getTime(),
      lastUsedAt: own.lastUsedAt?.getTime() ?? null,
    };
  });
  if (show !== null && !apiKeys.some((key) => key.id === show)) throw notFound();
  return data(
    {
      apiKeys,
      confirm: confirm.success ? confirm.data : null,
      timeZone: user.timeZone,
      mustVerifyEmail: await mustVerifyEmail(user.id),
    },
    // The page can carry a key in clear: never keep it in a cache.
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const here = () => href("/sms/apiToken");

// A new secret acts for the account: not before its address is proved (an intruder's key would outlive a reset).
const unverified = () => data({ result: null, error: verifyFirstMessage(VERIFY_BEFORE.apiKeys) }, { status: 403 });

export async function action({ request }: Route.ActionArgs) {
  const formData = await request.formData();
  if (formData.get("intent") === "create") {
    const user = await requireRecentSignIn(request);
    if (await mustVerifyEmail(user.id)) return unverified();
    const submission = parseWithZod(formData, { schema: NewApiKeySchema });
    if (submission.status !== "success") return data({ result: submission.reply(), error: null }, { status: 400 });
    try {
      await insertApiKey(user.id, submission.value);
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      return data({ result: submission.reply({ formErrors: [error.message] }), error: null }, { status: 400 });
    }
    return redirectWithToast(here(), { description: "Your API key is ready." });
  }
  const parsed = KeyIntent.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return data({ result: null, error: "Unknown action" }, { status: 400 });
  const intent = parsed.data;
  try {
    if (intent.intent === "revoke") {
      const user = await requireUser(request);
      await revokeApiKey(user.id, intent.keyId);
      return redirectWithToast(here(), { description: "The key is revoked: it no longer works." });
    }
    // A new secret is a new key: the password, or a recent sign-in.
    const user = await requireRecentSignIn(request);
    if (await mustVerifyEmail(user.id)) return unverified();
    const { replaced } = await regenerateApiKey(user.id, intent.keyId);
    return redirectWithToast(here(), {
      description: replaced ? "Your new API key is ready. The old key no longer works." : "Your API key is ready.",
    });
  } catch (error) {
    if (error instanceof ApiKeyNotFoundError) throw notFound();
    if (!(error instanceof KeyRevocationError)) throw error;
    log("error", "api", error.message, error.cause);
    return data({ result: null, error: CHANGE_FAILED }, { status: 503 });
  }
}

/** A post about one key (regenerate or revoke). */
function KeyForm({
  intent,
  keyId,
  label,
  children,
}: {
  intent: "regenerate" | "revoke";
  keyId: number;
  label: string;
  children?: ReactNode;
}) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="keyId" value={keyId} />
      <Button type="submit" variant="danger" disabled={navigation.state === "submitting"}>
        {label}
      </Button>
      {children}
    </Form>
  );
}

const CONFIRM = {
  regenerate: {
    title: "Regenerate your API key?",
    text: "A new key replaces this one, which stops working at once: anything that still uses it is refused until you give it the new key.",
    yes: "Yes, regenerate",
  },
  revoke: {
    title: "Revoke this API key?",
    text: "The key stops working at once and is removed; anything that still uses it is refused.",
    yes: "Yes, revoke",
  },
};

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const [canCopy, setCanCopy] = useState(false);
  useEffect(() => setCanCopy(Boolean(navigator.clipboard)), []);
  if (!canCopy) return null;
  return (
    <Button
      variant="secondary"
      onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}
      aria-live="polite"
    >
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}

type KeyView = Route.ComponentProps["loaderData"]["apiKeys"][number];

function ApiKeyCard({ apiKey, time }: { apiKey: KeyView; time: (ms: number) => string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const location = useLocation();
  const actionData = useActionData<typeof action>();
  // The action's answer (a redirect to a new location, or an error) means the dialog has done its job.
  // Not keyed on navigation.state: React may skip rendering its brief "loading" under load.
  useEffect(() => dialog.current?.close(), [location.key, actionData]);
  const labelId = `api-key-${apiKey.id}-label`;
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={labelId} className="text-base font-semibold text-slate-900">
          {apiKey.name}
        </h2>
        {apiKey.scopes.map((scope) => (
          <Badge key={scope}>{scope}</Badge>
        ))}
      </div>
      {apiKey.masked === null ? (
        <Notice tone="danger">
          <p role="alert">{ERROR_FETCHING}</p>
        </Notice>
      ) : (
        <code
          aria-labelledby={labelId}
          data-testid="api-key"
          className="block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
        >
          {apiKey.key ?? apiKey.masked}
        </code>
      )}
      <div className="flex flex-wrap gap-2">
        {apiKey.masked === null ? null : (
          <ButtonLink to={apiKey.key ? here() : `?show=${apiKey.id}`} variant="secondary" replace preventScrollReset>
            {apiKey.key ? "Hide Key" : "Show Key"}
          </ButtonLink>
        )}
        {apiKey.key ? <CopyButton text={apiKey.key} /> : null}
        <ButtonLink
          to={`?confirm=regenerate&key=${apiKey.id}`}
          variant="danger"
          preventScrollReset
          onClick={(event) => {
            if (!dialog.current?.showModal) return;
            event.preventDefault();
            dialog.current.showModal();
          }}
        >
          Regenerate Key
        </ButtonLink>
        <ButtonLink to={`?confirm=revoke&key=${apiKey.id}`} variant="secondary" preventScrollReset>
          Revoke
        </ButtonLink>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-600">Created</dt>
        <dd>{time(apiKey.createdAt)}</dd>
        <dt className="font-medium text-slate-600">Last used</dt>
        <dd data-testid="last-used">{apiKey.lastUsedAt ? time(apiKey.lastUsedAt) : "Never"}</dd>
      </dl>
      <dialog
        ref={dialog}
        aria-labelledby={`regenerate-title-${apiKey.id}`}
        className="m-auto max-w-md rounded-lg p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <div className="space-y-3">
          <h2 id={`regenerate-title-${apiKey.id}`} className="text-lg font-semibold text-slate-900">
            {CONFIRM.regenerate.title}
          </h2>
          <p className="text-sm text-slate-700">{CONFIRM.regenerate.text}</p>
          <KeyForm intent="regenerate" keyId={apiKey.id} label={CONFIRM.regenerate.yes}>
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
          </KeyForm>
        </div>
      </dialog>
    </Card>
  );
}

function NewKeyForm({
  lastResult,
  first,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  first: boolean;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "new-api-key",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewApiKeySchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Card>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <h2 className="text-base font-semibold text-slate-900">{first ? "Your first API key" : "Another API key"}</h2>
        <input type="hidden" name="intent" value="create" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Name"
          help="What will use it, e.g. “Web shop”."
          inputProps={{
            ...getInputProps(fields.name, { type: "text" }),
            defaultValue: fields.name.initialValue ?? "API key",
          }}
          errors={fields.name.errors}
        />
        <fieldset aria-describedby={fields.scopes.errors ? fields.scopes.errorId : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-700">What it may do</legend>
          {API_SCOPES.map((scope) => (
            <label key={scope} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name={fields.scopes.name} value={scope} defaultChecked />
              {SCOPE_LABELS[scope]}
            </label>
          ))}
          <ErrorList id={fields.scopes.errorId} errors={fields.scopes.errors} />
        </fieldset>
        <Button type="submit" variant="primary" disabled={navigation.state === "submitting"}>
          Create API Key
        </Button>
      </Form>
    </Card>
  );
}

export default function ApiToken({ loaderData, actionData }: Route.ComponentProps) {
  const { apiKeys, confirm, timeZone, mustVerifyEmail } = loaderData;
  const formError = actionData?.error ?? null;
  const time = (ms: number) => `${formatDateTime(ms, timeZone)} (${timeZone})`;
  const confirming = confirm && apiKeys.find((key) => key.id === confirm.key);

  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader subtitle="SMS Gateway" title="API Token" actions={<BackButton fallback={href("/sms/sendSms")} />} />
      <SecurityNav />
      {formError ? (
        <Notice tone="danger">
          <p role="alert">{formError}</p>
        </Notice>
      ) : null}
      {confirm && confirming ? (
        <Card className="space-y-3 ring-red-200">
          <h2 className="text-lg font-semibold text-slate-900">{CONFIRM[confirm.confirm].title}</h2>
          <p className="text-sm text-slate-700">
            {confirming.name}: {CONFIRM[confirm.confirm].text}
          </p>
          <KeyForm intent={confirm.confirm} keyId={confirming.id} label={CONFIRM[confirm.confirm].yes}>
            <ButtonLink to={here()} variant="secondary" replace>
              Cancel
            </ButtonLink>
          </KeyForm>
        </Card>
      ) : null}
      {apiKeys.length ? (
        apiKeys.map((apiKey) => <ApiKeyCard key={apiKey.id} apiKey={apiKey} time={time} />)
      ) : (
        <Card>
          <p className="text-slate-700">
            You do not have an API key yet. Create one to send SMS from your own software.
          </p>
        </Card>
      )}
      {mustVerifyEmail ? (
        <VerifyEmailFirst before={VERIFY_BEFORE.apiKeys} />
      ) : (
        <NewKeyForm lastResult={actionData?.result} first={apiKeys.length === 0} />
      )}
      <Notice>
        Keep your keys secret: anyone who has one can do what its scopes allow on your account. Send it with every
        request as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>, never in a URL. The{" "}
        <Link to={href("/sms/documentation")}>API Documentation</Link> shows every endpoint with examples.
      </Notice>
    </div>
  );
}
