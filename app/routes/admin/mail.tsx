import { href, Link } from "react-router";
import { z } from "zod";
import { Badge } from "#app/components/ui/badge.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import type { OutboxStatus } from "#app/db/schema/mail.ts";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { getOutboxMail, listOutbox, mailLinksShown } from "#app/modules/mail/outbox.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/mail";

export const meta: Route.MetaFunction = () => [{ title: "Mail | SMS Gateway" }];

const QuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  id: z.coerce.number().int().positive().optional().catch(undefined),
});

function mailUrl(page: number, id?: number): string {
  const params = new URLSearchParams();
  if (page > 1) params.set("page", String(page));
  if (id) params.set("id", String(id));
  const search = params.toString();
  return search ? `${href("/admin/mail")}?${search}` : href("/admin/mail");
}

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { appUrl, SMTP_URL } = getEnv();
  const selected = query.id ? await getOutboxMail(query.id) : null;
  if (selected === undefined) throw notFound();
  const list = await listOutbox(query.page);
  return { list, selected, appUrl, linksShown: mailLinksShown(), smtp: Boolean(SMTP_URL), timeZone: admin.timeZone };
}

function StatusBadge({ status, attempts }: { status: OutboxStatus; attempts: number }) {
  if (status === "sent") return <Badge tone="success">Sent</Badge>;
  if (status === "kept") return <Badge tone="neutral">Kept (no mail server)</Badge>;
  return <Badge tone="warning">{attempts > 0 ? `Retrying (${pluralize(attempts, "attempt")})` : "Queued"}</Badge>;
}

/** The mail's text with its links clickable; links to this site open here, whatever host it was reached by. */
function MailText({ text, appUrl }: { text: string; appUrl: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <pre className="overflow-x-auto rounded bg-slate-50 p-4 text-sm whitespace-pre-wrap" data-testid="mail-text">
      {parts.map((part, i) => {
        if (i % 2 === 0) return part;
        const local = part.startsWith(`${appUrl}/`) ? part.slice(appUrl.length) : null;
        return local ? (
          <Link key={i} to={local} reloadDocument>
            {part}
          </Link>
        ) : (
          <a key={i} href={part} rel="noreferrer">
            {part}
          </a>
        );
      })}
    </pre>
  );
}

export default function Mail({ loaderData }: Route.ComponentProps) {
  const { list, selected, appUrl, linksShown, smtp, timeZone } = loaderData;
  return (
    <div>
      <PageHeader subtitle="Admin" title="Mail" />
      <Notice className="mb-6">
        {smtp
          ? "Every e-mail to a person (password resets, verification, e-mail changes, alerts) goes through the mail server, retried until it takes it."
          : "SMTP_URL is not set: e-mails to people are kept here and not sent."}{" "}
        {linksShown
          ? "In full test mode their links work from here until used or expired."
          : "A link that still works is never shown here: it is a way into someone's account."}{" "}
        Support requests are in the <Link to={href("/admin/support")}>Support Inbox</Link>.
      </Notice>
      {selected ? (
        <Card className="mb-6">
          <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
            <div>
              <p className="text-sm text-slate-500">
                Mail #{selected.id} to {selected.to}, {formatDateTime(selected.createdAt, timeZone)} ({timeZone})
              </p>
              <h2 className="text-xl font-semibold break-words text-slate-900">{selected.subject}</h2>
            </div>
            <ButtonLink to={mailUrl(list.page)} variant="secondary">
              Close
            </ButtonLink>
          </div>
          {selected.lastError ? <p className="mb-3 text-sm text-red-700">Last error: {selected.lastError}</p> : null}
          <MailText text={selected.text} appUrl={appUrl} />
        </Card>
      ) : null}
      <Table>
        <thead>
          <tr>
            <Th>Date ({timeZone})</Th>
            <Th>To</Th>
            <Th>Subject</Th>
            <Th>Status</Th>
          </tr>
        </thead>
        <tbody>
          {list.rows.length === 0 ? (
            <tr>
              <Td colSpan={4}>No e-mail yet.</Td>
            </tr>
          ) : (
            list.rows.map((row) => (
              <tr key={row.id}>
                <Td className="whitespace-nowrap">{formatDateTime(row.createdAt, timeZone)}</Td>
                <Td className="break-all">{row.to}</Td>
                <Td>
                  <Link to={mailUrl(list.page, row.id)}>{row.subject}</Link>
                </Td>
                <Td>
                  <StatusBadge status={row.status} attempts={row.attempts} />
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <NumberedPager
        page={list.page}
        totalPages={list.totalPages}
        href={mailUrl}
        summary={`${pluralize(list.total, "e-mail")}, page ${list.page} of ${Math.max(1, list.totalPages)}`}
      />
    </div>
  );
}
