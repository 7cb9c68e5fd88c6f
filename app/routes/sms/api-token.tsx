import { type ReactNode, useEffect, useRef, useState } from "react";
import { data, Form, href, Link, useNavigation } from "react-router";
import { z } from "zod";
import { BackButton } from "#app/components/ui/back-button.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { KeyRevocationError, regenerateApiKey } from "#app/api/auth.server.ts";
import { getOwnApiKey, maskApiKey } from "#app/modules/api-keys/keys.server.ts";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { log } from "#app/utils/log.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/api-token";

export const meta: Route.MetaFunction = () => [{ title: "API Token | SMS Gateway" }];

const ERROR_FETCHING = "Error fetching user";
const REGENERATE_FAILED = "The key could not be replaced right now, so your current key still works. Please try again.";
const IntentSchema = z.object({ intent: z.literal("regenerate") });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const show = params.get("show") === "1";
  const page = { show, confirming: params.get("confirm") === "regenerate", timeZone: user.timeZone };
  // The page can carry the key in clear: never keep it in a cache.
  const headers = { "Cache-Control": "no-store" };
  try {
    const own = getOwnApiKey(user.id);
    const apiKey = own && {
      masked: maskApiKey(own.key),
      key: show ? own.key : null,
      createdAt: own.createdAt.getTime(),
      lastUsedAt: own.lastUsedAt?.getTime() ?? null,
    };
    return data({ ...page, apiKey, error: null }, { headers });
  } catch (error) {
    log("error", "api", `API key of user ${user.id} could not be read`, error);
    return data({ ...page, apiKey: null, error: ERROR_FETCHING }, { headers });
  }
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = IntentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown action" }, { status: 400 });
  try {
    const { replaced } = await regenerateApiKey(user.id);
    return redirectWithToast(href("/sms/apiToken"), {
      description: replaced ? "Your new API key is ready. The old key no longer works." : "Your API key is ready.",
    });
  } catch (error) {
    if (!(error instanceof KeyRevocationError)) throw error;
    log("error", "api", error.message, error.cause);
    return data({ error: REGENERATE_FAILED }, { status: 503 });
  }
}

/** The one post of this screen: a new key (the first, or one replacing the current key). */
function RegenerateForm({
  label,
  variant = "danger",
  children,
}: {
  label: string;
  variant?: "danger" | "primary";
  children?: ReactNode;
}) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="intent" value="regenerate" />
      <Button type="submit" variant={variant} disabled={navigation.state === "submitting"}>
        {label}
      </Button>
      {children}
    </Form>
  );
}

const CONFIRM_TITLE = "Regenerate your API key?";
const CONFIRM_TEXT =
  "A new key replaces the current one, which stops working at once: anything that still uses it is refused until you give it the new key.";

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

export default function ApiToken({ loaderData, actionData }: Route.ComponentProps) {
  const { apiKey, show, confirming, timeZone, error } = loaderData;
  const dialog = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  // After the regeneration the page reloads its data; the dialog has done its job.
  useEffect(() => {
    if (navigation.state === "loading") dialog.current?.close();
  }, [navigation.state]);
  const formError = actionData && "error" in actionData ? actionData.error : null;
  const time = (ms: number) => `${formatDateTime(ms, timeZone)} (${timeZone})`;

  return (
    <div className="max-w-3xl">
      <PageHeader subtitle="SMS Gateway" title="API Token" actions={<BackButton fallback={href("/sms/sendSms")} />} />
      {formError ? (
        <Notice tone="danger" className="mb-4">
          <p role="alert">{formError}</p>
        </Notice>
      ) : null}
      <Card className="space-y-5">
        {error ? (
          <Notice tone="danger">
            <p role="alert">{error}</p>
          </Notice>
        ) : apiKey ? (
          <>
            <div>
              <h2 id="api-key-label" className="text-sm font-medium text-slate-700">
                Your API key
              </h2>
              <code
                aria-labelledby="api-key-label"
                data-testid="api-key"
                className="mt-1 block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
              >
                {apiKey.key ?? apiKey.masked}
              </code>
            </div>
            <div className="flex flex-wrap gap-2">
              <ButtonLink to={show ? href("/sms/apiToken") : "?show=1"} variant="secondary" replace preventScrollReset>
                {show ? "Hide Key" : "Show Key"}
              </ButtonLink>
              {apiKey.key ? <CopyButton text={apiKey.key} /> : null}
              <ButtonLink
                to="?confirm=regenerate"
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
            </div>
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="font-medium text-slate-600">Created</dt>
              <dd>{time(apiKey.createdAt)}</dd>
              <dt className="font-medium text-slate-600">Last used</dt>
              <dd data-testid="last-used">{apiKey.lastUsedAt ? time(apiKey.lastUsedAt) : "Never"}</dd>
            </dl>
          </>
        ) : (
          <p className="text-slate-700">
            You do not have an API key yet. Create one to send SMS from your own software.
          </p>
        )}
        {apiKey ? null : <RegenerateForm label={error ? "Make a New Key" : "Create API Key"} variant="primary" />}
        <Notice>
          Keep your key secret: anyone who has it can send SMS on your credits. Send it with every request as{" "}
          <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>, never in a URL. The{" "}
          <Link to={href("/sms/documentation")}>API Documentation</Link> shows every endpoint with examples.
        </Notice>
      </Card>

      {apiKey && confirming ? (
        <Card className="mt-4 space-y-3 ring-red-200">
          <h2 className="text-lg font-semibold text-slate-900">{CONFIRM_TITLE}</h2>
          <p className="text-sm text-slate-700">{CONFIRM_TEXT}</p>
          <RegenerateForm label="Yes, regenerate">
            <ButtonLink to={href("/sms/apiToken")} variant="secondary" replace>
              Cancel
            </ButtonLink>
          </RegenerateForm>
        </Card>
      ) : null}

      {apiKey ? (
        <dialog
          ref={dialog}
          aria-labelledby="regenerate-title"
          className="m-auto max-w-md rounded-lg p-6 shadow-xl backdrop:bg-slate-900/50"
        >
          <div className="space-y-3">
            <h2 id="regenerate-title" className="text-lg font-semibold text-slate-900">
              {CONFIRM_TITLE}
            </h2>
            <p className="text-sm text-slate-700">{CONFIRM_TEXT}</p>
            <RegenerateForm label="Yes, regenerate">
              <Button variant="secondary" onClick={() => dialog.current?.close()}>
                Cancel
              </Button>
            </RegenerateForm>
          </div>
        </dialog>
      ) : null}
    </div>
  );
}
