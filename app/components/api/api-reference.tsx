import { Fragment, type ReactNode } from "react";
import { href, Link } from "react-router";
import type { ReferenceEndpoint, ReferenceField, ReferenceObject } from "#app/api/reference.server.ts";
import { cn } from "#app/web/class-names.ts";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/page.tsx";

export type ApiReferenceData = {
  intro: string[];
  endpoints: ReferenceEndpoint[];
  objects: ReferenceObject[];
  openApiUrl: string;
  /** The line that puts the key into the shell variable the examples read. */
  keyExport: string;
  keyShown: boolean;
  hasKey: boolean;
};

/** `code` spans in the document's prose. */
export function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em]">
            {part}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

const methodTone: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-800",
  POST: "bg-blue-100 text-blue-800",
  PUT: "bg-amber-100 text-amber-900",
  PATCH: "bg-amber-100 text-amber-900",
  DELETE: "bg-red-100 text-red-800",
};

export function Code({ children, testId, language }: { children: ReactNode; testId?: string; language?: string }) {
  return (
    <pre
      data-testid={testId}
      data-language={language}
      className="overflow-x-auto rounded-md bg-slate-900 p-4 text-sm leading-6 text-slate-100"
    >
      <code>{children}</code>
    </pre>
  );
}

function FieldList({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h4 className="mb-2 text-sm font-semibold text-slate-800">{title}</h4>
      <dl className="divide-y divide-slate-100 rounded-lg text-sm ring-1 ring-slate-200">{children}</dl>
    </div>
  );
}

function FieldRow({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div className="gap-4 px-4 py-3 sm:grid sm:grid-cols-[13rem_minmax(0,1fr)]">
      <dt>{term}</dt>
      <dd className="mt-1 text-slate-700 sm:mt-0">{children}</dd>
    </div>
  );
}

/** A type that names a shared object links to its description. */
function TypeName({ type, objects }: { type: string; objects: Set<string> }) {
  const name = type.replace(/\[\]$/, "");
  return objects.has(name) ? <a href={`#object-${name}`}>{type}</a> : <>{type}</>;
}

export function Fields({ fields, title, objects }: { fields: ReferenceField[]; title: string; objects: Set<string> }) {
  if (fields.length === 0) return null;
  return (
    <FieldList title={title}>
      {fields.map((field) => (
        <FieldRow
          key={`${field.where}-${field.name}`}
          term={
            <>
              <code className="font-mono font-semibold text-slate-900">{field.name}</code>{" "}
              <span className="font-mono text-xs text-slate-600">
                <TypeName type={field.type} objects={objects} />
              </span>
              <span className="block text-xs text-slate-500">
                {field.where === "body" || field.where === "response" ? "" : `${field.where}, `}
                {field.required ? "required" : "optional"}
              </span>
            </>
          }
        >
          <Prose text={field.description} />
        </FieldRow>
      ))}
    </FieldList>
  );
}

/** One endpoint's card; `examples` replaces the curl example (the public reference's four languages). */
export function Endpoint({
  endpoint,
  objects,
  examples,
}: {
  endpoint: Omit<ReferenceEndpoint, "curl"> & { curl?: string };
  objects: Set<string>;
  examples?: ReactNode;
}) {
  return (
    <Card className="space-y-4">
      <div id={endpoint.id} className="scroll-mt-4">
        <h3 className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900">
          <span className={cn("rounded px-2 py-0.5 font-mono text-sm", methodTone[endpoint.method])}>
            {endpoint.method}
          </span>
          <code className="font-mono text-base break-all">{endpoint.path}</code>
        </h3>
        <p className="mt-1 font-medium text-slate-800">{endpoint.summary}</p>
        {endpoint.description ? (
          <p className="mt-1 text-sm text-slate-600">
            <Prose text={endpoint.description} />
          </p>
        ) : null}
        {endpoint.auth ? null : <p className="mt-1 text-sm text-slate-600">No API key needed.</p>}
        {endpoint.scope ? (
          <p className="mt-1 text-sm text-slate-600">
            Key scope: <code className="font-mono">{endpoint.scope}</code>
          </p>
        ) : null}
      </div>
      <Fields fields={endpoint.fields} title="Request" objects={objects} />
      <p className="text-sm text-slate-800">
        <span className="font-semibold">{endpoint.success.status}</span> <Prose text={endpoint.success.description} />
        {endpoint.success.objects.length ? (
          <>
            {" "}
            The answer is{" "}
            {endpoint.success.objects.map((name, i) => (
              <Fragment key={name}>
                {i > 0 ? " or " : ""}a <a href={`#object-${name}`}>{name} object</a>
              </Fragment>
            ))}
            .
          </>
        ) : null}
      </p>
      <Fields fields={endpoint.success.fields} title="Response" objects={objects} />
      {endpoint.errors.length ? (
        <FieldList title="Errors">
          {endpoint.errors.map((error) => (
            <FieldRow
              key={`${error.status}-${error.code}`}
              term={
                <>
                  <span className="font-semibold text-slate-900">{error.status}</span>{" "}
                  <code className="font-mono text-xs text-slate-600">{error.code}</code>
                </>
              }
            >
              <Prose text={error.description} />
            </FieldRow>
          ))}
        </FieldList>
      ) : null}
      {examples ?? (
        <div>
          <h4 className="mb-2 text-sm font-semibold text-slate-800">Example</h4>
          <Code testId="curl-example">{endpoint.curl}</Code>
        </div>
      )}
    </Card>
  );
}

/** "The Message object": its fields, under the anchor the type names link to. */
export function ObjectCard({ object, objects }: { object: ReferenceObject; objects: Set<string> }) {
  return (
    <Card className="space-y-3">
      <h3 id={`object-${object.name}`} className="scroll-mt-4 text-lg font-semibold text-slate-900">
        The {object.name} object
      </h3>
      <Fields fields={object.fields} title="Fields" objects={objects} />
    </Card>
  );
}

/** The REST API reference under the send form of /sms/documentation, rendered from the OpenAPI document. */
export function ApiReference({ reference }: { reference: ApiReferenceData }) {
  const objects = new Set(reference.objects.map((o) => o.name));
  return (
    <section aria-labelledby="api-reference" className="mt-10 space-y-6">
      <div className="space-y-3">
        <h2 id="api-reference" className="text-xl font-bold text-slate-900 sm:text-2xl">
          REST API reference
        </h2>
        {reference.intro.map((paragraph) => (
          <p key={paragraph} className="max-w-3xl text-slate-700">
            <Prose text={paragraph} />
          </p>
        ))}
        <p className="text-slate-700">
          The <Link to={href("/docs/api")}>public API reference</Link> has every endpoint with examples in curl,
          Node.js, Python and PHP, the webhook events and how to verify their signatures.
        </p>
        <p className="text-slate-700">
          The OpenAPI 3.1 document for tools and code generators:{" "}
          <a href={reference.openApiUrl} className="break-all">
            {reference.openApiUrl}
          </a>
        </p>
        <nav aria-label="Endpoints">
          <ul className="flex flex-wrap gap-2 text-sm">
            {reference.endpoints.map((endpoint) => (
              <li key={endpoint.id}>
                <a
                  href={`#${endpoint.id}`}
                  className="rounded bg-slate-100 px-2 py-1 font-mono text-slate-800 no-underline hover:bg-slate-200"
                >
                  {endpoint.method} {endpoint.path}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <Card className="space-y-3">
        <h3 className="text-lg font-semibold text-slate-900">Try the examples</h3>
        <p className="text-sm text-slate-700">
          Each example is a command for a terminal. First put your API key in a shell variable; the examples read it
          from there, so the key stays out of your shell history's commands and out of this page.
        </p>
        <Code testId="key-export">{reference.keyExport}</Code>
        <div className="flex flex-wrap gap-2">
          {reference.hasKey ? (
            <ButtonLink
              to={reference.keyShown ? `${href("/sms/documentation")}#api-reference` : "?key=1#api-reference"}
              variant="secondary"
              replace
              preventScrollReset
            >
              {reference.keyShown ? "Hide my key" : "Show my key in the example"}
            </ButtonLink>
          ) : (
            <p className="text-sm text-slate-700">
              You do not have an API key yet: create one on the <Link to={href("/sms/apiToken")}>API Token</Link> page.
            </p>
          )}
        </div>
      </Card>

      {reference.endpoints.map((endpoint) => (
        <Endpoint key={endpoint.id} endpoint={endpoint} objects={objects} />
      ))}

      {reference.objects.map((object) => (
        <ObjectCard key={object.name} object={object} objects={objects} />
      ))}
    </section>
  );
}
