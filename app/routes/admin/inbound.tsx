import { href, Link } from "react-router";
import { PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { listUnassignedInbound } from "#app/modules/inbound/inbox.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import type { Route } from "./+types/inbound";

export const meta: Route.MetaFunction = () => [{ title: "Unassigned inbound SMS | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  return { ...listUnassignedInbound(page), timeZone: admin.timeZone, canSimulate: getEnv().testMode.active };
}

const pageHref = (page: number) => (page > 1 ? `${href("/admin/inbound")}?page=${page}` : href("/admin/inbound"));

export default function UnassignedInbound({ loaderData }: Route.ComponentProps) {
  const { messages, page, totalPages, total, timeZone, canSimulate } = loaderData;
  return (
    <div>
      <PageHeader title="Unassigned inbound SMS" subtitle="Messages no account owns" />
      <p className="mb-4 text-sm text-slate-700">
        Sent to an address that is no account's sender, or to the shared sender by a phone no account wrote to in the
        last 30 days.
        {canSimulate ? (
          <>
            {" "}
            <Link to={href("/admin/simulate")}>Simulate an inbound SMS</Link>.
          </>
        ) : null}
      </p>
      {messages.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No unassigned messages.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Unassigned inbound messages, newest first</caption>
          <thead>
            <tr>
              <Th>Received ({timeZone})</Th>
              <Th>From</Th>
              <Th>To</Th>
              <Th>Message</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {messages.map((m) => (
              <tr key={m.id} data-testid="unassigned-row">
                <Td className="whitespace-nowrap">{formatDateTime(m.receivedAt, timeZone)}</Td>
                <Td className="break-all">{m.from}</Td>
                <Td className="break-all">{m.to}</Td>
                <Td className="break-words whitespace-pre-wrap">{m.body}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <NumberedPager
        page={page}
        totalPages={totalPages}
        href={pageHref}
        count={pluralize(total, "message")}
        label="Pages"
      />
    </div>
  );
}
