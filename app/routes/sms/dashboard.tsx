import { href, Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { deliveryRateText, Figure, MessagesChart, PeriodForm } from "#app/components/insight/insight.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { getDashboard } from "#app/modules/insight/dashboard.server.ts";
import { parsePeriod } from "#app/modules/insight/periods.ts";
import { clock } from "#app/utils/clock.server.ts";
import { formatDateTime, formatNumber } from "#app/utils/misc.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const days = parsePeriod(new URL(request.url).searchParams.get("days"));
  return { days, timeZone: user.timeZone, ...(await getDashboard(user.id, days, user.timeZone, clock.now())) };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { days, timeZone, perDay, totals, campaigns } = loaderData;
  return (
    <div>
      <PageHeader title="Dashboard" subtitle={`The last ${days} days, days in ${timeZone}`} />
      <PeriodForm days={days} />
      <dl className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Figure label="Messages sent" value={formatNumber(totals.sent)} testId="figure-sent" />
        <Figure label="Delivery rate" value={deliveryRateText(totals.deliveryRate)} testId="figure-delivery-rate" />
        <Figure label="Credits spent" value={formatNumber(totals.creditsSpent)} testId="figure-credits" />
        <Figure label="Messages received" value={formatNumber(totals.inbound)} testId="figure-inbound" />
      </dl>
      <MessagesChart days={perDay} totals={totals} timeZone={timeZone} />
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900">Latest campaigns</h2>
        {campaigns.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
            No group sends yet.
          </p>
        ) : (
          <Table>
            <caption className="sr-only">Your latest group sends, newest first</caption>
            <thead>
              <tr>
                <Th>Group</Th>
                <Th>Message</Th>
                <Th className="text-right">Queued</Th>
                <Th className="text-right">Skipped</Th>
                <Th>Started ({timeZone})</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {campaigns.map((c) => (
                <tr key={c.id} data-testid="campaign-row">
                  <Td className="break-words">
                    <Link to={href("/sms/campaigns/:id", { id: String(c.id) })}>{c.groupName}</Link>{" "}
                    {c.status === "done" ? null : <Badge>{c.status === "failed" ? "Stopped" : "Sending"}</Badge>}
                  </Td>
                  <Td className="max-w-xs truncate" title={c.body}>
                    {c.body}
                  </Td>
                  <Td className="text-right">{formatNumber(c.queued)}</Td>
                  <Td className="text-right">{formatNumber(c.skipped)}</Td>
                  <Td className="whitespace-nowrap">{formatDateTime(c.createdAt, timeZone)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </div>
  );
}
