import { href, Link } from "react-router";
import { CampaignProgress } from "#app/components/campaigns/campaign-progress.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { LabelledCell, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { listCampaigns } from "#app/modules/campaigns/campaigns.server.ts";
import { formatDateTime, formatNumber } from "#app/utils/misc.ts";
import { positiveIntParam } from "#app/web/params.ts";
import type { Route } from "./+types/campaigns";

export const meta: Route.MetaFunction = () => [{ title: "Campaigns | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = positiveIntParam(new URL(request.url).searchParams, "page") ?? 1;
  return { ...(await listCampaigns(user.id, page)), timeZone: user.timeZone };
}

export default function Campaigns({ loaderData }: Route.ComponentProps) {
  const { campaigns, page, totalPages, timeZone } = loaderData;
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Campaigns"
        actions={
          <ButtonLink to="/sms/AccountGroups" variant="secondary">
            Groups
          </ButtonLink>
        }
      />
      <p className="mb-4 text-sm text-slate-600">
        Every message sent to a group, and each occurrence of a scheduled group SMS, with how its messages are doing.
      </p>
      <Table>
        <thead className="hidden sm:table-header-group">
          <tr>
            <Th>Campaign</Th>
            <Th>Message</Th>
            <Th>
              Started <span className="font-normal normal-case">({timeZone})</span>
            </Th>
            <Th>Delivery</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {campaigns.length === 0 ? (
            <tr>
              <Td colSpan={4} className="py-8 text-center text-slate-600">
                No campaigns yet: send a message to a group from the Groups list.
              </Td>
            </tr>
          ) : (
            campaigns.map((c) => {
              const messages = c.counts.delivered + c.counts.failed + c.counts.sent + c.counts.queued;
              return (
                <tr key={c.id} data-testid="campaign-row" className="block py-2 sm:table-row sm:py-0">
                  <LabelledCell label="Campaign">
                    <Link to={href("/sms/campaigns/:id", { id: String(c.id) })} className="font-medium">
                      #{c.id} {c.groupName}
                    </Link>
                    <p className="text-xs text-slate-500">{c.scheduleId ? "Scheduled group SMS" : "Group send"}</p>
                  </LabelledCell>
                  <LabelledCell label="Message" className="sm:min-w-56">
                    <p className="line-clamp-2 break-words">{c.body}</p>
                  </LabelledCell>
                  <LabelledCell label={`Started (${timeZone})`} className="whitespace-nowrap">
                    {formatDateTime(c.occurrenceAt ?? c.createdAt, timeZone)}
                  </LabelledCell>
                  <LabelledCell label="Delivery" className="sm:min-w-48">
                    <CampaignProgress counts={c.counts} label={`Delivery of campaign #${c.id}`} />
                    <p className="mt-1 text-xs text-slate-600">
                      {formatNumber(c.counts.delivered)} of {formatNumber(messages)} delivered
                      {c.counts.failed ? `, ${formatNumber(c.counts.failed)} failed` : ""}
                      {c.skipped ? `, ${formatNumber(c.skipped)} skipped` : ""}
                      {c.status === "failed" ? " · stopped" : ""}
                    </p>
                  </LabelledCell>
                </tr>
              );
            })
          )}
        </tbody>
      </Table>
      <NumberedPager page={page} totalPages={totalPages} label="Campaign pages" />
    </div>
  );
}
