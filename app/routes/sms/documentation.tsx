import { data, href } from "react-router";
import { ApiReference } from "#app/components/api/api-reference.tsx";
import { SendSmsScreen } from "#app/components/sms/send-sms-screen.tsx";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { exampleApiKey } from "#app/api/example-key.server.ts";
import { openApiDocument } from "#app/api/openapi.server.ts";
import { apiReference, KEY_VARIABLE } from "#app/api/reference.server.ts";
import { API_BASE } from "#app/api/define-route.ts";
import { API_ROUTES, readerExampleValues } from "#app/api/routes.server.ts";
import { requireRecentSignIn, requireUser } from "#app/routes/auth/guards.server.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { listPrices } from "#app/modules/pricing/prices.server.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";
import { sendSmsFormAction } from "#app/routes/sms/forms/send-sms.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { Route } from "./+types/documentation";

export const meta: Route.MetaFunction = () => [{ title: "Documentation | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const keyShown = new URL(request.url).searchParams.get("key") === "1";
  // The key in clear is a sensitive reveal, as on the API Token page.
  const user = keyShown ? await requireRecentSignIn(request) : await requireUser(request);
  const origin = getEnv().appUrl;
  const document = openApiDocument(API_ROUTES, origin);
  const { endpoints, objects } = apiReference(document, await readerExampleValues(user.id));
  const key = await exampleApiKey(user.id);
  return data(
    {
      config: smsFormConfig(),
      prices: await listPrices(),
      senders: await sendingSenders(user.id),
      mustVerifyEmail: await mustVerifyEmail(user.id),
      reference: {
        intro: String((document.info as { description: string }).description).split("\n\n"),
        endpoints,
        objects,
        openApiUrl: `${origin}${API_BASE}/openapi.json`,
        keyExport: `export ${KEY_VARIABLE}='${keyShown && key ? key : "paste your key from the API Token page"}'`,
        keyShown: keyShown && key !== null,
        hasKey: key !== null,
      },
    },
    // Only when asked does the page hold the key; then it must not be cached.
    { headers: { "Cache-Control": keyShown ? "no-store" : "private, no-cache" } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return sendSmsFormAction(request, user.id, href("/sms/documentation"), user.timeZone);
}

export default function Documentation({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SendSmsScreen
      prices={loaderData.prices}
      title="Documentation"
      config={loaderData.config}
      senders={loaderData.senders}
      mustVerifyEmail={loaderData.mustVerifyEmail}
      lastResult={actionData}
    >
      <ApiReference reference={loaderData.reference} />
    </SendSmsScreen>
  );
}
