import { href, Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { listConversations } from "#app/modules/inbound/inbox.server.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import type { Route } from "./+types/inbox";

export const meta: Route.MetaFunction = () => [{ title: "Inbox | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  return { ...(await listConversations(user.id, page)), timeZone: user.timeZone };
}

const pageHref = (page: number) => (page > 1 ? `${href("/sms/inbox")}?page=${page}` : href("/sms/inbox"));

export default function Inbox({ loaderData }: Route.ComponentProps) {
  const { conversations, page, totalPages, total, timeZone } = loaderData;
  return (
    <div>
      <PageHeader title="Inbox" subtitle="Replies and messages people sent you" />
      {conversations.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No messages yet. When someone texts one of your senders, or answers a message you sent, it shows here.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {conversations.map((c) => (
            <li key={c.phone} data-testid="conversation">
              <Link
                to={href("/sms/inbox/:phone", { phone: c.phone })}
                className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3 text-slate-900 no-underline hover:bg-slate-50"
              >
                <span className={c.unread > 0 ? "font-semibold" : "font-medium"}>
                  {c.contactName ? `${c.contactName} (${c.phone})` : c.phone}
                </span>
                {c.unread > 0 ? <Badge tone="primary">{formatNumber(c.unread)} unread</Badge> : null}
                <span className="ml-auto text-xs whitespace-nowrap text-slate-500">
                  {formatDateTime(c.lastAt, timeZone)}
                </span>
                <span className="basis-full truncate text-sm text-slate-600">
                  {c.lastDirection === "outbound" ? "You: " : ""}
                  {c.lastBody}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <NumberedPager
        page={page}
        totalPages={totalPages}
        href={pageHref}
        count={pluralize(total, "conversation")}
        label="Pages"
      />
    </div>
  );
}
