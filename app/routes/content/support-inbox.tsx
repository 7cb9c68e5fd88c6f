import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link, useNavigation } from "react-router";
import { SupportStatusBadge } from "#app/components/content/support-status-badge.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink, buttonClass } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import type { MailStatus } from "#app/db/schema/support.ts";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { getSupportRequest, listSupportRequests, setSupportStatus } from "#app/modules/support/requests.server.ts";
import { type InboxQuery, InboxQuerySchema, SupportInboxActionSchema } from "#app/modules/support/schemas.ts";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import { cn } from "#app/web/class-names.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/support-inbox";

export const meta: Route.MetaFunction = () => [{ title: "Support Inbox | SMS Gateway" }];

function readQuery(request: Request): InboxQuery {
  return InboxQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
}

function inboxUrl(query: Partial<InboxQuery>): string {
  const params = new URLSearchParams();
  if (query.filter && query.filter !== "open") params.set("filter", query.filter);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  if (query.id) params.set("id", String(query.id));
  const search = params.toString();
  return search ? `${href("/admin/support")}?${search}` : href("/admin/support");
}

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = readQuery(request);
  const selected = query.id ? await getSupportRequest(query.id) : null;
  if (query.id && !selected) throw notFound();
  const list = await listSupportRequests(query);
  // The page shown, so every link on the screen (pager, rows, Close) stays on a real page.
  return { query: { ...query, page: list.page }, timeZone: admin.timeZone, list, selected: selected ?? null };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: SupportInboxActionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { intent, id } = submission.value;
  if (!(await setSupportStatus(id, admin.id, intent === "handle" ? "handled" : "open"))) throw notFound();
  return redirectWithToast(inboxUrl({ ...readQuery(request), id }), {
    description: intent === "handle" ? "Support request marked as handled." : "Support request reopened.",
  });
}

const sourceLabel = { contact: "Contact form", support: "Support form" } as const;

function MailBadge({ status, attempts }: { status: MailStatus; attempts: number }) {
  if (status === "sent") return <Badge tone="success">E-mail sent</Badge>;
  if (status === "not_configured") return <Badge tone="neutral">Saved only</Badge>;
  return (
    <Badge tone="warning">
      {attempts > 0 ? `E-mail retrying (${pluralize(attempts, "attempt")})` : "E-mail queued"}
    </Badge>
  );
}

type Selected = NonNullable<Route.ComponentProps["loaderData"]["selected"]>;

function Detail({ selected, query, timeZone }: { selected: Selected; query: InboxQuery; timeZone: string }) {
  const navigation = useNavigation();
  const { request: r, handledByName } = selected;
  const at = (d: Date | number) => `${formatDateTime(d, timeZone)} (${timeZone})`;
  return (
    <Card className="mb-6">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-slate-500">Request #{r.id}</p>
          <h2 className="text-xl font-semibold break-words text-slate-900">{r.subject}</h2>
        </div>
        <div className="flex flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="id" value={r.id} />
            {r.status === "open" ? (
              <Button
                type="submit"
                name="intent"
                value="handle"
                variant="success"
                disabled={navigation.state !== "idle"}
              >
                Mark handled
              </Button>
            ) : (
              <Button
                type="submit"
                name="intent"
                value="reopen"
                variant="secondary"
                disabled={navigation.state !== "idle"}
              >
                Reopen
              </Button>
            )}
          </Form>
          <ButtonLink to={inboxUrl({ ...query, id: undefined })} variant="secondary">
            Close
          </ButtonLink>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-500">From</dt>
          <dd className="break-words">
            {r.name} &lt;<a href={`mailto:${r.email}`}>{r.email}</a>&gt;
            {r.userId !== null ? <span className="text-slate-500"> · account #{r.userId}</span> : null}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500">Received</dt>
          <dd>
            {at(r.createdAt)} via the {sourceLabel[r.source].toLowerCase()}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500">Status</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <SupportStatusBadge status={r.status} />
            {r.handledAt ? (
              <span className="text-slate-600">
                {handledByName ? `by ${handledByName} ` : ""}on {at(r.handledAt)}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500">E-mail to support</dt>
          <dd className="space-y-1" data-testid="mail-status">
            <MailBadge status={r.mailStatus} attempts={r.mailAttempts} />
            <p className="text-slate-600">
              {r.mailStatus === "sent" && r.mailSentAt
                ? `Accepted by the mail server on ${at(r.mailSentAt)}.`
                : r.mailStatus === "not_configured"
                  ? "No mail server is configured (SMTP_URL), so this request is kept here only."
                  : r.mailLastError
                    ? `Not delivered yet; the last attempt failed: ${r.mailLastError}`
                    : "Waiting for the mail server."}
            </p>
          </dd>
        </div>
      </dl>
      <h3 className="mt-6 mb-2 text-sm font-medium text-slate-500">Message</h3>
      <p className="rounded-md bg-slate-50 p-4 text-sm whitespace-pre-wrap text-slate-900 ring-1 ring-slate-200 ring-inset">
        {r.message}
      </p>
    </Card>
  );
}

const filters = [
  { value: "open", label: "Open" },
  { value: "handled", label: "Handled" },
  { value: "all", label: "All" },
] as const;

export default function SupportInbox({ loaderData }: Route.ComponentProps) {
  const { query, list, selected, timeZone } = loaderData;
  return (
    <div>
      <PageHeader title="Support Inbox" />
      {selected ? <Detail selected={selected} query={query} timeZone={timeZone} /> : null}
      <nav aria-label="Filter requests" className="mb-4 flex flex-wrap gap-2">
        {filters.map((f) => (
          <Link
            key={f.value}
            to={inboxUrl({ filter: f.value })}
            aria-current={query.filter === f.value ? "page" : undefined}
            className={buttonClass({ variant: query.filter === f.value ? "primary" : "secondary", size: "sm" })}
          >
            {f.label}
          </Link>
        ))}
      </nav>
      {list.rows.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">
          No support requests here.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Support requests, newest first</caption>
          <thead>
            <tr>
              <Th>Subject</Th>
              <Th>From</Th>
              <Th>Received ({timeZone})</Th>
              <Th>Source</Th>
              <Th>E-mail</Th>
              <Th>Status</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.rows.map((row) => (
              <tr key={row.id} className={cn(selected?.request.id === row.id && "bg-brand-50")}>
                <Td className="min-w-48 break-words">
                  <Link to={inboxUrl({ ...query, id: row.id })}>{row.subject}</Link>
                </Td>
                <Td>
                  <div className="font-medium">{row.name}</div>
                  <div className="text-xs break-all text-slate-500">{row.email}</div>
                </Td>
                <Td className="whitespace-nowrap">{formatDateTime(row.createdAt, timeZone)}</Td>
                <Td className="whitespace-nowrap">{sourceLabel[row.source]}</Td>
                <Td>
                  <MailBadge status={row.mailStatus} attempts={row.mailAttempts} />
                </Td>
                <Td>
                  <SupportStatusBadge status={row.status} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <NumberedPager
        page={query.page}
        totalPages={list.totalPages}
        href={(n) => inboxUrl({ filter: query.filter, page: n })}
        count={pluralize(list.total, "request")}
        label="Pages"
      />
    </div>
  );
}
