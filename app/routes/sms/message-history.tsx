import { href } from "react-router";
import { MessageStatusBadge } from "#app/components/sms/message-status.tsx";
import { DeferredUntil } from "#app/components/quiet-hours/deferred-until.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Notice, PageHeader } from "#app/components/ui/page.tsx";
import { Pager } from "#app/components/ui/pager.tsx";
import { LabelledCell, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { getMessageHistory, HISTORY_LIMIT } from "#app/modules/sms/history.server.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import { positiveIntParam } from "#app/utils/params.ts";
import type { Route } from "./+types/message-history";

export const meta: Route.MetaFunction = () => [{ title: "Message History | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const history = getMessageHistory(user.id, positiveIntParam(params, "page") ?? 1, {
    after: positiveIntParam(params, "after"),
    before: positiveIntParam(params, "before"),
  });
  return { ...history, timeZone: user.timeZone, limit: HISTORY_LIMIT };
}

export default function MessageHistory({ loaderData }: Route.ComponentProps) {
  const { messages, page, totalPages, timeZone, limit, previousHref, nextHref } = loaderData;
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Message History"
        actions={
          <ButtonLink to={href("/sms/sendSms")} variant="secondary">
            Back
          </ButtonLink>
        }
      />
      <Notice className="mb-4">Message history is limited to {formatNumber(limit)} rows.</Notice>
      <Table>
        <thead className="hidden sm:table-header-group">
          <tr>
            <Th>Message ID</Th>
            <Th>Delivery Status</Th>
            <Th>Receiver Phone</Th>
            <Th>Message Content</Th>
            <Th>
              Created At <span className="font-normal normal-case">({timeZone})</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {messages.length === 0 ? (
            <tr>
              <Td colSpan={5} className="py-8 text-center text-slate-600">
                You have not sent any messages yet.
              </Td>
            </tr>
          ) : (
            messages.map((m) => (
              <tr key={m.id} data-testid="message-row" className="block py-2 sm:table-row sm:py-0">
                <LabelledCell label="Message ID">
                  <span className="font-mono">{m.id}</span>
                </LabelledCell>
                <LabelledCell label="Delivery Status">
                  <MessageStatusBadge status={m.status} reason={m.error} />
                  {m.status === "queued" && m.deferredUntil ? (
                    <DeferredUntil at={m.deferredUntil.getTime()} timeZone={timeZone} />
                  ) : null}
                </LabelledCell>
                <LabelledCell label="Receiver Phone" className="whitespace-nowrap">
                  {m.toPhone}
                </LabelledCell>
                <LabelledCell label="Message Content" className="sm:min-w-56">
                  <p className="line-clamp-3 break-words whitespace-pre-wrap">{m.body}</p>
                  <p className="mt-1 text-xs text-slate-500">{pluralize(m.segments, "segment")}</p>
                </LabelledCell>
                <LabelledCell label={`Created At (${timeZone})`} className="whitespace-nowrap">
                  <time dateTime={new Date(m.createdAt).toISOString()}>{formatDateTime(m.createdAt, timeZone)}</time>
                </LabelledCell>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <Pager
        previous={previousHref}
        next={nextHref}
        summary={`Page ${page} of ${totalPages}`}
        label="Message history pages"
      />
    </div>
  );
}
