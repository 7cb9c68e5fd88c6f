import { href, Link } from "react-router";
import { BarChart } from "#app/components/bar-chart.tsx";
import { deliveryRateText, Figure, MessagesChart, PeriodForm, percentText } from "#app/components/insight/insight.tsx";
import { adminLinks } from "#app/components/nav.tsx";
import { Card, Notice, PageHeader } from "#app/components/ui/page.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { getAdminOverview } from "#app/modules/insight/admin-overview.server.ts";
import { parsePeriod } from "#app/modules/insight/periods.ts";
import { prefixLabel } from "#app/modules/pricing/price-list.ts";
import { formatCostMicros } from "#app/modules/routing/routing.ts";
import { cardPaymentAvailable } from "#app/modules/payments/provider.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { formatDollars, formatNumber } from "#app/utils/misc.ts";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = () => [{ title: "Admin overview | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const days = parsePeriod(new URL(request.url).searchParams.get("days"));
  return {
    days,
    timeZone: admin.timeZone,
    cardPaymentAvailable: cardPaymentAvailable(),
    ...(await getAdminOverview(days, admin.timeZone, clock.now())),
  };
}

/** For admins only: customers see "not available" in the shop, without the reason. */
function CardPaymentsNotConfigured() {
  return (
    <Notice tone="warning" className="mb-6">
      <section aria-label="Configuration">
        <p>
          <strong>Card payments are not configured.</strong> Customers cannot buy credits by card, and the shop, cart
          and payment page say card payment is not available. To sell by card, set STRIPE_SECRET_KEY,
          STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET; otherwise grant credits from an account&apos;s page in{" "}
          <Link to={href("/admin/users")}>Accounts &amp; Credits</Link>.
        </p>
      </section>
    </Notice>
  );
}

/** Credits charged per destination prefix in the period (net of refunds), the money they stand for, what the upstreams charged, and the margin. */
function RevenueByDestination({ destinations }: { destinations: Route.ComponentProps["loaderData"]["destinations"] }) {
  return (
    <section className="mt-6">
      <h2 className="mb-2 text-lg font-semibold text-slate-900">Revenue by destination</h2>
      <p className="mb-2 text-sm text-slate-700">
        Credits charged for messages created in the period, net of refunds, by the{" "}
        <Link to={href("/admin/prices")}>price list</Link>&apos;s prefix that matches each number; revenue is those
        credits at what a credit has sold for on average (paid orders, net of refunds). Upstream cost is each accepted
        message&apos;s segments at the cost per segment its upstream has in the{" "}
        <Link to={href("/admin/routes")}>route</Link> for the number; margin is revenue minus that cost.
      </p>
      {destinations.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No credits charged in this period.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">
            Credits charged, revenue, upstream cost and margin per destination prefix, most credits first
          </caption>
          <thead>
            <tr>
              <Th>Destination</Th>
              {/* Left out on a phone (as is the cost), so the revenue and margin fit. */}
              <Th className="hidden text-right sm:table-cell">Messages</Th>
              <Th className="hidden text-right sm:table-cell">Credits charged</Th>
              <Th className="text-right">Revenue</Th>
              <Th className="hidden text-right sm:table-cell">Upstream cost</Th>
              <Th className="text-right">Margin</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {destinations.map((destination) => (
              <tr key={destination.prefix} data-testid="destination-revenue-row">
                <Td className="font-medium">{prefixLabel(destination.prefix)}</Td>
                <Td className="hidden text-right sm:table-cell">{formatNumber(destination.messages)}</Td>
                <Td className="hidden text-right sm:table-cell">{formatNumber(destination.credits)}</Td>
                <Td className="text-right">
                  {destination.revenueCents === null ? "no credits sold yet" : formatDollars(destination.revenueCents)}
                </Td>
                <Td className="hidden text-right sm:table-cell">{formatCostMicros(destination.costMicros)}</Td>
                <Td className="text-right">
                  {destination.marginMicros === null ? "unknown" : formatCostMicros(destination.marginMicros)}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

const formatMegabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { days, timeZone, cardPaymentAvailable, sales, perDay, totals, busiest, optOuts, destinations, system } =
    loaderData;
  const revenue = sum(sales.map((day) => day.revenueCents));
  const creditsSold = sum(sales.map((day) => day.creditsSold));
  const orders = sum(sales.map((day) => day.orders));
  const period = `from ${sales[0]?.date} to ${sales.at(-1)?.date} (days in ${timeZone})`;
  return (
    <div>
      <PageHeader title="Admin overview" subtitle={`The last ${days} days, every account`} />
      {cardPaymentAvailable ? null : <CardPaymentsNotConfigured />}
      <nav aria-label="Admin screens" className="mb-6">
        <ul className="flex flex-wrap gap-2">
          {adminLinks
            .filter((link) => link.to !== href("/admin"))
            .map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="inline-block rounded bg-white px-3 py-1.5 text-sm shadow-sm ring-1 ring-slate-200"
                >
                  {link.label}
                </Link>
              </li>
            ))}
        </ul>
      </nav>
      <PeriodForm days={days} />
      <dl className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Figure label="Revenue" value={formatDollars(revenue)} testId="figure-revenue" />
        <Figure label="Credits sold" value={formatNumber(creditsSold)} testId="figure-credits-sold" />
        <Figure label="Messages sent" value={formatNumber(totals.sent)} testId="figure-sent" />
        <Figure label="Delivery rate" value={deliveryRateText(totals.deliveryRate)} testId="figure-delivery-rate" />
      </dl>
      <div className="grid gap-6 lg:grid-cols-2">
        <BarChart
          title="Revenue per day"
          summary={`${formatDollars(revenue)} from ${formatNumber(orders)} paid orders ${period}, net of refunds.`}
          series={[{ key: "revenueCents", label: "Revenue", fill: "fill-brand-600", swatch: "bg-brand-600" }]}
          data={sales.map((day) => ({ label: day.date, revenueCents: day.revenueCents }))}
          format={formatDollars}
        />
        <BarChart
          title="Credits sold per day"
          summary={`${formatNumber(creditsSold)} credits sold ${period}, net of reversals.`}
          series={[{ key: "creditsSold", label: "Credits", fill: "fill-violet-500", swatch: "bg-violet-500" }]}
          data={sales.map((day) => ({ label: day.date, creditsSold: day.creditsSold }))}
        />
      </div>
      <div className="mt-6">
        <MessagesChart days={perDay} totals={totals} timeZone={timeZone} />
      </div>
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900">Accounts that sent the most</h2>
        {busiest.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
            No messages sent in this period.
          </p>
        ) : (
          <Table>
            <caption className="sr-only">Accounts by messages sent in the period, most first</caption>
            <thead>
              <tr>
                <Th>Account</Th>
                <Th>E-mail</Th>
                <Th className="text-right">Messages sent</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {busiest.map((account) => (
                <tr key={account.userId} data-testid="busiest-row">
                  <Td className="break-words">
                    <Link to={href("/admin/users/:id", { id: String(account.userId) })}>{account.fullName}</Link>
                  </Td>
                  <Td className="break-all">{account.email}</Td>
                  <Td className="text-right">{formatNumber(account.sent)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900">Accounts whose recipients answered STOP</h2>
        <p className="mb-2 text-sm text-slate-700">
          Of the phones each account wrote to in the period, those that replied STOP (and are still opted out). A STOP
          to the shared sender blocks every account that sends from it.
        </p>
        {optOuts.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
            No recipient answered STOP in this period.
          </p>
        ) : (
          <Table>
            <caption className="sr-only">
              Accounts by the share of their recipients who answered STOP, highest first
            </caption>
            <thead>
              <tr>
                <Th>Account</Th>
                <Th className="text-right">Recipients who answered STOP</Th>
                <Th className="text-right">Share</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {optOuts.map((account) => (
                <tr key={account.userId} data-testid="opt-out-row">
                  <Td className="break-words">
                    <Link to={href("/admin/users/:id", { id: String(account.userId) })}>{account.fullName}</Link>
                    <div className="text-xs break-all text-slate-600">{account.email}</div>
                  </Td>
                  <Td className="text-right">
                    {formatNumber(account.stopped)} of {formatNumber(account.recipients)}
                  </Td>
                  <Td className="text-right whitespace-nowrap">{percentText(account.stopped / account.recipients)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
      <RevenueByDestination destinations={destinations} />
      <section className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="mb-2 text-lg font-semibold text-slate-900">Queues</h2>
          {system.queues === null ? (
            <p className="text-sm text-rose-700">Redis does not answer: queue depths unknown.</p>
          ) : (
            <table className="min-w-full text-sm" data-testid="queue-depths">
              <caption className="sr-only">Jobs per queue and state</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col">Queue</th>
                  <th scope="col" className="text-right">
                    Waiting
                  </th>
                  <th scope="col" className="text-right">
                    Active
                  </th>
                  <th scope="col" className="text-right">
                    Delayed
                  </th>
                  <th scope="col" className="text-right">
                    Failed
                  </th>
                </tr>
              </thead>
              <tbody>
                {system.queues.map(({ queue, jobs }) => (
                  <tr key={queue}>
                    <th scope="row" className="text-left font-normal">
                      {queue}
                    </th>
                    <td className="text-right">{formatNumber(jobs.waiting + jobs.prioritized)}</td>
                    <td className="text-right">{formatNumber(jobs.active)}</td>
                    <td className="text-right">{formatNumber(jobs.delayed)}</td>
                    <td className="text-right">{formatNumber(jobs.failed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        <Card>
          <h2 className="mb-2 text-lg font-semibold text-slate-900">Workers and storage</h2>
          <dl className="space-y-1 text-sm" data-testid="system-state">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Workers alive</dt>
              <dd>
                {system.workers === null ? "unknown (Redis does not answer)" : formatNumber(system.workers.alive)}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">SMPP binds</dt>
              <dd data-testid="smpp-state">
                {system.workers === null
                  ? "unknown"
                  : system.workers.alive === 0
                    ? "no worker alive"
                    : system.workers.smpp
                      ? `${system.workers.smppBound} of ${system.workers.smppBinds} bound`
                      : "not SMPP (simulator)"}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Database</dt>
              <dd data-testid="database-size">
                {formatMegabytes(system.database.bytes)} ({formatMegabytes(system.database.freeBytes)} free inside)
              </dd>
            </div>
          </dl>
        </Card>
      </section>
    </div>
  );
}
