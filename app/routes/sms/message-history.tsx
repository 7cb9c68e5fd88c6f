import { Form, href, Link, useLocation } from "react-router";
import { MessageStatusBadge } from "#app/components/sms/message-status.tsx";
import { DeferredUntil } from "#app/components/quiet-hours/deferred-until.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Field, SelectField } from "#app/components/ui/field.tsx";
import { Notice, PageHeader } from "#app/components/ui/page.tsx";
import { Pager } from "#app/components/ui/pager.tsx";
import { LabelledCell, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { MESSAGE_STATUSES } from "#app/db/enums.ts";
import { filterQuery, hasFilters, TEXT_MIN_LENGTH } from "#app/modules/sms/history-filters.ts";
import {
  campaignChoices,
  getMessageHistory,
  HISTORY_LIMIT,
  isOwnCampaign,
  parseHistoryFilters,
  TEXT_SEARCH_WINDOW,
} from "#app/modules/sms/history.server.ts";
import { MESSAGE_STATUS_LABELS } from "#app/modules/messaging/message-status.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import { positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/message-history";

export const meta: Route.MetaFunction = () => [{ title: "Message History | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const { filters, values, errors } = parseHistoryFilters(params, user.timeZone);
  if (filters.campaign !== undefined && !(await isOwnCampaign(user.id, filters.campaign))) throw notFound();
  const invalid = Object.keys(errors).length > 0;
  // A bad filter shows its error next to the field and no rows, rather than rows it did not ask for.
  const history = invalid
    ? { messages: [], page: 1, totalPages: 1, total: 0, previousHref: null, nextHref: null }
    : await getMessageHistory(
        user.id,
        positiveIntParam(params, "page") ?? 1,
        { after: positiveIntParam(params, "after"), before: positiveIntParam(params, "before") },
        filters,
        values,
      );
  return {
    ...history,
    values,
    errors,
    campaigns: await campaignChoices(user.id, filters.campaign),
    timeZone: user.timeZone,
    limit: HISTORY_LIMIT,
    textWindow: TEXT_SEARCH_WINDOW,
  };
}

export default function MessageHistory({ loaderData }: Route.ComponentProps) {
  const { messages, page, totalPages, timeZone, limit, previousHref, nextHref, values, errors, campaigns } = loaderData;
  const location = useLocation();
  const filtered = hasFilters(values);
  const invalid = Object.keys(errors).length > 0;
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
      {/* A GET form: every filter lives in the URL. It has no page field, so filtering starts at page 1. */}
      <Form
        key={location.search}
        method="get"
        role="search"
        aria-label="Filter messages"
        className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4 lg:items-start"
      >
        <SelectField
          label="Direction"
          errors={[errors.direction]}
          selectProps={{ name: "direction", defaultValue: values.direction ?? "outbound" }}
        >
          <option value="outbound">Outbound (sent)</option>
          <option value="inbound">Inbound (received)</option>
        </SelectField>
        <SelectField
          label="Status"
          errors={[errors.status]}
          selectProps={{ name: "status", defaultValue: values.status }}
        >
          <option value="">All</option>
          {MESSAGE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {MESSAGE_STATUS_LABELS[status]}
            </option>
          ))}
        </SelectField>
        <Field
          label="Phone"
          errors={[errors.phone]}
          inputProps={{ name: "phone", type: "tel", defaultValue: values.phone, placeholder: "+12025550123" }}
        />
        <Field
          label="Text contains"
          errors={[errors.text]}
          help={`At least ${TEXT_MIN_LENGTH} characters; looks through your newest ${formatNumber(loaderData.textWindow)} messages.`}
          inputProps={{ name: "text", type: "search", defaultValue: values.text }}
        />
        <Field
          label={`From date (${timeZone})`}
          errors={[errors.from]}
          inputProps={{ name: "from", type: "date", defaultValue: values.from }}
        />
        <Field
          label={`To date (${timeZone})`}
          errors={[errors.to]}
          inputProps={{ name: "to", type: "date", defaultValue: values.to }}
        />
        <SelectField
          label="Campaign"
          errors={[errors.campaign]}
          selectProps={{ name: "campaign", defaultValue: values.campaign }}
        >
          <option value="">All</option>
          {campaigns.map((c) => (
            <option key={c.id} value={c.id}>
              #{c.id} {c.groupName} ({formatDateTime(c.createdAt, timeZone)})
            </option>
          ))}
        </SelectField>
        <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-1 lg:self-end">
          <Button type="submit">Filter</Button>
          {filtered ? (
            <ButtonLink to={href("/sms/messageHistory")} variant="secondary">
              Clear filters
            </ButtonLink>
          ) : null}
          {invalid ? null : (
            // A plain download link: the browser saves the file, with or without JavaScript.
            <ButtonLink
              to={`${href("/sms/messageHistory/export")}${filterQuery(values)}`}
              variant="secondary"
              reloadDocument
            >
              Export CSV
            </ButtonLink>
          )}
        </div>
      </Form>
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
                {invalid
                  ? "Correct the filters above to see messages."
                  : filtered
                    ? "No messages match these filters."
                    : "You have not sent any messages yet."}
              </Td>
            </tr>
          ) : (
            messages.map((m) => (
              <tr key={m.id} data-testid="message-row" className="block py-2 sm:table-row sm:py-0">
                <LabelledCell label="Message ID">
                  {m.direction === "outbound" ? (
                    <Link
                      to={href("/sms/messages/:id", { id: String(m.id) })}
                      aria-label={`Message ${m.id}: its journey`}
                      className="font-mono"
                    >
                      {m.id}
                    </Link>
                  ) : (
                    <span className="font-mono">{m.id}</span>
                  )}
                </LabelledCell>
                <LabelledCell label="Delivery Status">
                  {m.status ? <MessageStatusBadge status={m.status} reason={m.error} /> : <Badge>Received</Badge>}
                  {m.status === "queued" && m.deferredUntil ? (
                    <DeferredUntil at={m.deferredUntil.getTime()} timeZone={timeZone} />
                  ) : null}
                </LabelledCell>
                <LabelledCell label="Receiver Phone" className="whitespace-nowrap">
                  {m.toPhone}
                </LabelledCell>
                <LabelledCell label="Message Content" className="sm:min-w-56">
                  <p className="line-clamp-3 break-words whitespace-pre-wrap">{m.body}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {m.direction === "inbound" ? `From ${m.fromPhone} · ` : null}
                    {pluralize(m.segments, "segment")}
                    {m.campaignId ? (
                      <>
                        {" · "}
                        <Link to={href("/sms/campaigns/:id", { id: String(m.campaignId) })}>
                          Campaign #{m.campaignId}
                        </Link>
                      </>
                    ) : null}
                  </p>
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
