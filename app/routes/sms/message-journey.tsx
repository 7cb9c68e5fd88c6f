import { href } from "react-router";
import { MessageStatusBadge } from "#app/components/sms/message-status.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { getJourney } from "#app/modules/journey/journey.server.ts";
import { describeEvent } from "#app/modules/journey/journey-events.ts";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import { positiveInt } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/message-journey";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Message #${loaderData.message.id}` : "Message"} | SMS Gateway` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const id = positiveInt(params.id);
  const journey = id === undefined ? undefined : await getJourney(user.id, id);
  if (!journey) throw notFound();
  return { ...journey, timeZone: user.timeZone };
}

export default function MessageJourney({ loaderData }: Route.ComponentProps) {
  const { message, events, timeZone } = loaderData;
  return (
    <div className="space-y-4">
      <PageHeader
        subtitle="SMS Gateway"
        title={`Message #${message.id}`}
        actions={
          <ButtonLink to={href("/sms/messageHistory")} variant="secondary">
            Message History
          </ButtonLink>
        }
      />
      <Card>
        <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium text-slate-600">To</dt>
          <dd>{message.to}</dd>
          <dt className="font-medium text-slate-600">From</dt>
          <dd>{message.from ?? "The gateway's shared sender"}</dd>
          <dt className="font-medium text-slate-600">Status</dt>
          <dd>
            <MessageStatusBadge status={message.status} reason={message.statusDetail} />
          </dd>
          <dt className="font-medium text-slate-600">Size</dt>
          <dd>
            {pluralize(message.segments, "segment")}, {pluralize(message.credits, "credit")}
          </dd>
          <dt className="font-medium text-slate-600">Message</dt>
          <dd className="break-words whitespace-pre-wrap">{message.body}</dd>
        </dl>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Journey</h2>
        <p className="mt-1 text-sm text-slate-600">
          Oldest first, times in {timeZone}: what the gateway recorded on the way.
        </p>
        <ol className="mt-4 space-y-4 border-l-2 border-slate-200 pl-4">
          {events.map((event, i) => {
            const { title, details } = describeEvent(event, timeZone);
            return (
              <li key={i} data-testid="journey-event" data-type={event.type}>
                <p className="text-sm">
                  <time dateTime={new Date(event.at).toISOString()} className="font-mono text-slate-600">
                    {formatDateTime(event.at, timeZone, { seconds: true })}
                  </time>{" "}
                  <span className="font-semibold text-slate-900">{title}</span>
                </p>
                {details.map((detail, j) => (
                  <p key={j} className="text-sm break-words text-slate-700">
                    {detail}
                  </p>
                ))}
              </li>
            );
          })}
        </ol>
      </Card>
    </div>
  );
}
