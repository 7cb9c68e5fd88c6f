import { data, href, Link } from "react-router";
import { Code, Endpoint, Fields, ObjectCard, Prose } from "#app/components/api/api-reference.tsx";
import { CodeTabs, LanguageChoice } from "#app/components/api/code-tabs.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { KEY_PLACEHOLDER } from "#app/api/code-examples.ts";
import { API_BASE } from "#app/api/define-route.ts";
import { exampleApiKey } from "#app/api/example-key.server.ts";
import { openApiDocument } from "#app/api/openapi.server.ts";
import { apiReference, webhookEvents, webhookHeaders } from "#app/api/reference.server.ts";
import { API_ROUTES, readerExampleValues } from "#app/api/routes.server.ts";
import { SECRET_VARIABLE, WEBHOOK_VERIFICATION_EXAMPLES } from "#app/api/webhook-verification.ts";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { requireRecentSignIn } from "#app/routes/auth/guards.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import type { Route } from "./+types/api-docs";

export const meta: Route.MetaFunction = () => [
  { title: "API reference | SMS Gateway" },
  {
    name: "description",
    content:
      "The SMS Gateway REST API: every endpoint with examples in curl, Node.js, Python and PHP, and the webhook events with how to verify their signatures.",
  },
];

export async function loader({ request }: Route.LoaderArgs) {
  const keyShown = new URL(request.url).searchParams.get("key") === "1";
  // The key in clear is a sensitive reveal, as on the API Token page and the Documentation screen.
  const user = keyShown ? await requireRecentSignIn(request) : await getSessionUser(request);
  const origin = getEnv().appUrl;
  const ownKey = user ? await exampleApiKey(user.id) : null;
  const key = keyShown && ownKey ? ownKey : KEY_PLACEHOLDER;
  const document = openApiDocument(API_ROUTES, origin);
  const { endpoints, objects } = apiReference(document, user ? await readerExampleValues(user.id) : {}, key);
  return data(
    {
      intro: String((document.info as { description: string }).description).split("\n\n"),
      openApiUrl: `${origin}${API_BASE}/openapi.json`,
      // The examples here hold the key itself; the shell-variable curl is the Documentation screen's.
      endpoints: endpoints.map(({ curl: _curl, examples, ...endpoint }) => ({ ...endpoint, examples: examples ?? [] })),
      objects,
      events: webhookEvents(document),
      headers: webhookHeaders(document),
      reader: { signedIn: user !== null, hasKey: ownKey !== null, keyShown: key !== KEY_PLACEHOLDER },
    },
    // With the key in it the page must not be kept anywhere; a signed-in reader's ids are theirs.
    { headers: keyShown ? { "Cache-Control": "no-store" } : user ? { "Cache-Control": "private, no-cache" } : {} },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type LoaderData = Route.ComponentProps["loaderData"];

function KeyNotice({ reader }: { reader: LoaderData["reader"] }) {
  if (!reader.signedIn) {
    return (
      <p className="text-sm text-slate-700">
        The examples use <code className="font-mono">{KEY_PLACEHOLDER}</code>: put your API key there. To get one,{" "}
        <Link to={href("/register")}>create an account</Link> or <Link to={href("/login")}>sign in</Link> and open the
        API Token page.
      </p>
    );
  }
  if (!reader.hasKey) {
    return (
      <p className="text-sm text-slate-700">
        The examples use <code className="font-mono">{KEY_PLACEHOLDER}</code>. You do not have an API key yet: create
        one on the <Link to={href("/sms/apiToken")}>API Token</Link> page.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
      <p>
        {reader.keyShown ? (
          "The examples hold your API key: keep them to yourself."
        ) : (
          <>
            The examples use <code className="font-mono">{KEY_PLACEHOLDER}</code>. Showing your own key asks for your
            password if you have not typed it lately.
          </>
        )}
      </p>
      <ButtonLink to={reader.keyShown ? href("/docs/api") : "?key=1"} variant="secondary" replace preventScrollReset>
        {reader.keyShown ? "Hide my key" : "Show my key in the examples"}
      </ButtonLink>
    </div>
  );
}

function Contents({ loaderData }: { loaderData: LoaderData }) {
  const link = "text-slate-700 no-underline hover:text-slate-900 hover:underline";
  return (
    <nav
      aria-labelledby="contents-heading"
      className="rounded-lg bg-white p-5 text-sm ring-1 ring-slate-200 lg:sticky lg:top-6 lg:max-h-[calc(100vh-3rem)] lg:overflow-y-auto"
    >
      <h2 id="contents-heading" className="text-base font-semibold text-slate-900">
        Contents
      </h2>
      <ol className="mt-3 space-y-2">
        <li>
          <a href="#getting-started" className={link}>
            Getting started
          </a>
        </li>
        <li>
          <a href="#endpoints" className={link}>
            Endpoints
          </a>
          <ul className="mt-1 space-y-1 border-l border-slate-200 pl-3">
            {loaderData.endpoints.map((endpoint) => (
              <li key={endpoint.id}>
                <a href={`#${endpoint.id}`} className={`${link} font-mono text-xs break-all`}>
                  {endpoint.method} {endpoint.path}
                </a>
              </li>
            ))}
          </ul>
        </li>
        <li>
          <a href="#objects" className={link}>
            Objects
          </a>
        </li>
        <li>
          <a href="#webhooks" className={link}>
            Webhooks
          </a>
          <ul className="mt-1 space-y-1 border-l border-slate-200 pl-3">
            <li>
              <a href="#verifying-webhook-signatures" className={link}>
                Verifying webhook signatures
              </a>
            </li>
            {loaderData.events.map((event) => (
              <li key={event.type}>
                <a href={`#event-${event.type}`} className={`${link} font-mono text-xs`}>
                  {event.type}
                </a>
              </li>
            ))}
          </ul>
        </li>
      </ol>
    </nav>
  );
}

const sectionHeading = "scroll-mt-4 text-xl font-bold text-slate-900 sm:text-2xl";

function Webhooks({ loaderData }: { loaderData: LoaderData }) {
  return (
    <section aria-labelledby="webhooks" className="space-y-6">
      <h2 id="webhooks" className={sectionHeading}>
        Webhooks
      </h2>
      <Card className="space-y-3 text-slate-700">
        <p>
          Instead of asking GET /api/v1/messages/{"{id}"} again and again, add a webhook endpoint (the Webhooks screen,
          or POST /api/v1/webhooks) and we POST each event you choose to your URL as JSON:{" "}
          <code className="font-mono text-sm">{'{ "type", "timestamp", "data" }'}</code>. Each delivery carries the
          Standard Webhooks headers:
        </p>
        <dl className="divide-y divide-slate-100 rounded-lg text-sm ring-1 ring-slate-200">
          {loaderData.headers.map((header) => (
            <div key={header.name} className="gap-4 px-4 py-3 sm:grid sm:grid-cols-[13rem_minmax(0,1fr)]">
              <dt>
                <code className="font-mono font-semibold text-slate-900">{header.name}</code>
              </dt>
              <dd className="mt-1 sm:mt-0">
                <Prose text={header.description} />
              </dd>
            </div>
          ))}
        </dl>
        <p>
          Answer with any 2xx status within 10 seconds. Anything else, no answer, or a redirect (we do not follow it) is
          a failure, and the same event is sent again with exponential backoff, for up to 24 hours by default.{" "}
          <strong>Every retry has the same webhook-id</strong>: store the ids you have handled and skip one you have
          seen, so an event is handled once even when it arrives twice.
        </p>
        <p>
          <strong>Order is not promised.</strong> A retry can arrive after a newer event about the same message. Each
          message event carries the message's current <code className="font-mono text-sm">status</code> and its{" "}
          <code className="font-mono text-sm">updatedAt</code>: keep the one with the newest updatedAt and ignore older
          ones.
        </p>
        <p>
          <strong>Sending comes first.</strong> While the gateway is sending at full speed (a large campaign), events
          are held until the burst is over, 10 seconds at most, and then follow; none is dropped.
        </p>
      </Card>

      <Card className="space-y-3">
        <h3 id="verifying-webhook-signatures" className="scroll-mt-4 text-lg font-semibold text-slate-900">
          Verifying webhook signatures
        </h3>
        <p className="text-sm text-slate-700">
          Check every delivery before you trust it: the signature is an HMAC-SHA256 of{" "}
          <code className="font-mono">webhook-id.webhook-timestamp.body</code> with your endpoint's signing secret
          (shown once when you create the endpoint, in <code className="font-mono">{SECRET_VARIABLE}</code> below).
          Verify the raw body exactly as received, before any JSON parsing, and refuse a timestamp more than five
          minutes from your clock. The Standard Webhooks libraries do both; the shell version shows the computation
          itself.
        </p>
        <CodeTabs
          title="Receiving and verifying"
          examples={WEBHOOK_VERIFICATION_EXAMPLES}
          labels={{ curl: "Shell (openssl)" }}
        />
      </Card>

      {loaderData.events.map((event) => {
        // Events that share their data's object (the message events) describe it once, at the first.
        const first = loaderData.events.find((other) => event.dataObject && other.dataObject === event.dataObject);
        return (
          <Card key={event.type} className="space-y-4">
            <div>
              <h3 id={`event-${event.type}`} className="scroll-mt-4 text-lg font-semibold text-slate-900">
                <code className="font-mono">{event.type}</code>
              </h3>
              <p className="mt-1 font-medium text-slate-800">{event.summary}</p>
              <p className="mt-1 text-sm text-slate-600">
                <Prose text={event.description} />
              </p>
            </div>
            {first && first !== event ? (
              <p className="text-sm text-slate-700">
                <code className="font-mono">data</code> has the fields of{" "}
                <a href={`#event-${first.type}`}>
                  <code className="font-mono">{first.type}</code>
                </a>
                .
              </p>
            ) : (
              <Fields fields={event.fields} title="data" objects={new Set()} />
            )}
            <div>
              <h4 className="mb-2 text-sm font-semibold text-slate-800">Example delivery body</h4>
              <Code testId="event-example">{event.example}</Code>
            </div>
          </Card>
        );
      })}
    </section>
  );
}

export default function ApiDocs({ loaderData }: Route.ComponentProps) {
  const objects = new Set(loaderData.objects.map((o) => o.name));
  return (
    <LanguageChoice>
      <div className="mx-auto max-w-7xl">
        <PageHeader title="API reference" subtitle="SMS Gateway" />
        <div className="gap-8 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)]">
          <aside className="mb-8 lg:mb-0">
            <Contents loaderData={loaderData} />
          </aside>
          <div className="min-w-0 space-y-10">
            <section aria-labelledby="getting-started" className="space-y-3">
              <h2 id="getting-started" className={sectionHeading}>
                Getting started
              </h2>
              {loaderData.intro.map((paragraph) => (
                <p key={paragraph} className="max-w-3xl text-slate-700">
                  <Prose text={paragraph} />
                </p>
              ))}
              <p className="text-slate-700">
                The OpenAPI 3.1 document, with the webhooks, for tools and code generators:{" "}
                <a href={loaderData.openApiUrl} className="break-all">
                  {loaderData.openApiUrl}
                </a>
              </p>
              <KeyNotice reader={loaderData.reader} />
            </section>

            <section aria-labelledby="endpoints" className="space-y-6">
              <h2 id="endpoints" className={sectionHeading}>
                Endpoints
              </h2>
              {loaderData.endpoints.map((endpoint) => (
                <Endpoint
                  key={endpoint.id}
                  endpoint={endpoint}
                  objects={objects}
                  examples={<CodeTabs title="Examples" examples={endpoint.examples} />}
                />
              ))}
            </section>

            <section aria-labelledby="objects" className="space-y-6">
              <h2 id="objects" className={sectionHeading}>
                Objects
              </h2>
              {loaderData.objects.map((object) => (
                <ObjectCard key={object.name} object={object} objects={objects} />
              ))}
            </section>

            <Webhooks loaderData={loaderData} />
          </div>
        </div>
      </div>
    </LanguageChoice>
  );
}
