import { useEffect } from "react";
import { href, useRevalidator } from "react-router";
import { CampaignProgress, OutcomeLegend } from "#app/components/campaigns/campaign-progress.tsx";
import { MessageStatusBadge } from "#app/components/sms/message-status.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { LabelledCell, Table, Td, Th } from "#app/components/ui/table.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { getCampaign } from "#app/modules/campaigns/campaigns.server.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import { positiveInt, positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/campaign";

/** While messages wait for their receipts the page refreshes its counts this often (with JavaScript). */
const REFRESH_MS = 2_000;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Campaign #${loaderData.campaign.id}` : "Campaign"} | SMS Gateway` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const id = positiveInt(params.id);
  const page = positiveIntParam(new URL(request.url).searchParams, "page") ?? 1;
  const found = id === undefined ? null : await getCampaign(user.id, id, page);
  if (!found) throw notFound();
  return { ...found, timeZone: user.timeZone };
}

export default function Campaign({ loaderData }: Route.ComponentProps) {
  const { campaign, counts, messages, skipped, skipReasons, recipients, page, totalPages, timeZone } = loaderData;
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const moving = !campaign.finished || counts.queued + counts.sent > 0;
  useEffect(() => {
    if (!moving || revalidator.state !== "idle") return;
    const timer = setTimeout(() => void revalidator.revalidate(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [moving, revalidator, loaderData]);

  const id = String(campaign.id);
  const self = href("/sms/campaigns/:id", { id });
  return (
    <div className="space-y-4">
      <PageHeader
        subtitle="SMS Gateway"
        title={`Campaign #${campaign.id}: ${campaign.groupName}`}
        actions={
          <>
            <ButtonLink to={`${href("/sms/messageHistory")}?campaign=${id}`} variant="secondary">
              In Message History
            </ButtonLink>
            <ButtonLink to={href("/sms/campaigns/:id/export", { id })} variant="secondary" reloadDocument>
              Export CSV
            </ButtonLink>
            <ButtonLink to={href("/sms/campaigns")} variant="secondary">
              Back
            </ButtonLink>
          </>
        }
      />
      <Card>
        <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium text-slate-600">Message</dt>
          <dd className="break-words whitespace-pre-wrap" data-testid="campaign-body">
            {campaign.body}
          </dd>
          <dt className="font-medium text-slate-600">{campaign.scheduleId ? "Occurrence" : "Sent"}</dt>
          <dd>
            {formatDateTime(campaign.occurrenceAt ?? campaign.createdAt, timeZone)} ({timeZone})
            {campaign.scheduleId ? " · from a scheduled group SMS" : ""}
          </dd>
          <dt className="font-medium text-slate-600">Recipients</dt>
          <dd>
            {pluralize(campaign.total, "member")} in the group when it started: {pluralize(messages, "message")},{" "}
            {formatNumber(skipped)} skipped
          </dd>
          {campaign.stopReason ? (
            <>
              <dt className="font-medium text-slate-600">Stopped</dt>
              <dd className="text-red-700">{campaign.stopReason}</dd>
            </>
          ) : null}
        </dl>
      </Card>
      <Card>
        <h2 className="mb-2 text-base font-semibold text-slate-900">Delivery</h2>
        <CampaignProgress counts={counts} label={`Delivery of campaign #${campaign.id}`} />
        <p className="mt-2 text-sm text-slate-700" role="status" data-testid="campaign-summary">
          {formatNumber(counts.delivered)} of {formatNumber(messages)} delivered
          {counts.failed ? `, ${formatNumber(counts.failed)} failed` : ""}
          {moving ? " (updating as receipts arrive)" : "."}
        </p>
        <OutcomeLegend counts={counts} />
        {skipReasons.length > 0 ? (
          <div className="mt-3 text-sm">
            <h3 className="font-medium text-slate-700">Skipped: {formatNumber(skipped)}</h3>
            <ul className="mt-1 list-disc pl-5 text-slate-600" data-testid="skip-reasons">
              {skipReasons.map((r) => (
                <li key={r.reason}>
                  {formatNumber(r.n)} {r.reason}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {moving && !hydrated ? (
          <ButtonLink to={self} variant="secondary" size="sm" className="mt-3">
            Refresh
          </ButtonLink>
        ) : null}
      </Card>
      <section aria-labelledby="recipients-heading">
        <h2 id="recipients-heading" className="mb-2 text-base font-semibold text-slate-900">
          Recipients
        </h2>
        <Table>
          <thead className="hidden sm:table-header-group">
            <tr>
              <Th>Message ID</Th>
              <Th>Contact</Th>
              <Th>Phone</Th>
              <Th>Delivery Status</Th>
              <Th>
                Final at <span className="font-normal normal-case">({timeZone})</span>
              </Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {recipients.length === 0 ? (
              <tr>
                <Td colSpan={5} className="py-8 text-center text-slate-600">
                  No messages {campaign.finished ? "were sent" : "queued yet"}.
                </Td>
              </tr>
            ) : (
              recipients.map((r) => (
                <tr key={r.id} data-testid="recipient-row" className="block py-2 sm:table-row sm:py-0">
                  <LabelledCell label="Message ID">
                    <span className="font-mono">{r.id}</span>
                  </LabelledCell>
                  <LabelledCell label="Contact">{r.name ?? "(deleted contact)"}</LabelledCell>
                  <LabelledCell label="Phone" className="whitespace-nowrap">
                    {r.phone}
                  </LabelledCell>
                  <LabelledCell label="Delivery Status">
                    <MessageStatusBadge status={r.status} reason={r.error} />
                  </LabelledCell>
                  <LabelledCell label={`Final at (${timeZone})`} className="whitespace-nowrap">
                    {r.doneAt ? formatDateTime(r.doneAt, timeZone) : "-"}
                  </LabelledCell>
                </tr>
              ))
            )}
          </tbody>
        </Table>
        <NumberedPager page={page} totalPages={totalPages} label="Recipient pages" />
      </section>
    </div>
  );
}
