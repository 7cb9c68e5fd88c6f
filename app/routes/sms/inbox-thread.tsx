import { useEffect } from "react";
import { data, Form, href, redirect, useFetcher, useLocation } from "react-router";
import { ReplyForm } from "#app/components/inbox/reply-form.tsx";
import { MessageStatusBadge } from "#app/components/sms/message-status.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { sendSmsFormAction } from "#app/routes/sms/forms/send-sms.server.ts";
import { getThread, hasThread, markThreadRead, replySender } from "#app/modules/inbound/inbox.server.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { isE164 } from "#app/modules/messaging/phone.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { cn } from "#app/web/class-names.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/inbox-thread";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.contactName ?? loaderData?.phone ?? "Conversation"} | Inbox | SMS Gateway` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  const thread = await getThread(user.id, params.phone, page);
  if (!thread) throw notFound();
  return {
    ...thread,
    replyFrom: (await replySender(user.id, thread.lastTo)) ?? null,
    canReply: isE164(params.phone),
    config: smsFormConfig(),
    timeZone: user.timeZone,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  if (!(await hasThread(user.id, params.phone))) throw notFound();
  const path = href("/sms/inbox/:phone", { phone: params.phone });
  const form = await request.clone().formData();
  if (form.get("intent") === READ_INTENT) {
    await markThreadRead(user.id, params.phone);
    // The page's own background post stays put (a redirect would navigate, clearing a reply being
    // typed); the button's post-redirect-get is for the browser without JavaScript.
    return form.has(BACKGROUND) ? data(null) : redirect(path);
  }
  const answer = await sendSmsFormAction(request, user.id, path);
  // A reply that went out (a redirect) read the conversation; a refused one changes nothing.
  if (answer instanceof Response) await markThreadRead(user.id, params.phone);
  return answer;
}

const READ_INTENT = "read";
const BACKGROUND = "background";

/**
 * Marks the thread read: posted by the page itself once shown (a GET changes nothing, decision 052),
 * or by the button when JavaScript is off.
 */
function MarkRead({ unread }: { unread: number }) {
  const fetcher = useFetcher();
  const { submit } = fetcher;
  useEffect(() => {
    if (unread > 0) void submit({ intent: READ_INTENT, [BACKGROUND]: "1" }, { method: "post" });
  }, [unread, submit]);
  if (unread === 0 || fetcher.state !== "idle") return null;
  return (
    <Form method="post">
      <Button type="submit" name="intent" value={READ_INTENT} variant="secondary" size="sm">
        Mark as read
      </Button>
    </Form>
  );
}

export default function InboxThread({ loaderData, actionData }: Route.ComponentProps) {
  const { phone, contactName, messages, page, totalPages, unread, replyFrom, canReply, config, timeZone } = loaderData;
  const location = useLocation();
  const pageHref = (to: number) => `${href("/sms/inbox/:phone", { phone })}${to > 1 ? `?page=${to}` : ""}`;
  return (
    <div className="space-y-4">
      <PageHeader
        title={contactName ? `${contactName} (${phone})` : phone}
        subtitle="Conversation"
        actions={
          <>
            <MarkRead unread={unread} />
            <ButtonLink to={href("/sms/inbox")} variant="secondary">
              All conversations
            </ButtonLink>
          </>
        }
      />
      {/* Older messages are on the next pages: "Next" goes back in time. */}
      {totalPages > 1 ? (
        <NumberedPager
          page={page}
          totalPages={totalPages}
          href={pageHref}
          summary={`Page ${page} of ${totalPages} (page 1 is the newest)`}
          label="Older and newer messages"
        />
      ) : null}
      <Card>
        <h2 className="sr-only">Messages</h2>
        <ol className="space-y-3" aria-label="Thread, oldest first">
          {messages.map((m) => (
            <li
              key={`${m.direction}-${m.id}`}
              data-testid="thread-message"
              data-direction={m.direction}
              className={cn("flex", m.direction === "outbound" ? "justify-end" : "justify-start")}
            >
              <div
                className={cn(
                  "max-w-[85%] rounded-lg px-3 py-2 text-sm sm:max-w-[70%]",
                  m.direction === "outbound" ? "bg-brand-50 ring-1 ring-brand-200" : "bg-slate-100",
                )}
              >
                <p className="text-xs text-slate-500">
                  {m.direction === "outbound" ? "You" : (contactName ?? phone)} · {formatDateTime(m.at, timeZone)}
                </p>
                <p className="break-words whitespace-pre-wrap text-slate-900">{m.body}</p>
                <div className="mt-1">
                  {m.direction === "outbound" ? (
                    <MessageStatusBadge status={m.status} reason={m.error} />
                  ) : (
                    <Badge>Received</Badge>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ol>
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Reply</h2>
        {canReply ? (
          // A new location after a sent reply: a fresh, empty form.
          <ReplyForm key={location.key} phone={phone} from={replyFrom} config={config} lastResult={actionData} />
        ) : (
          <p className="text-sm text-slate-600">This sender is not a phone number: it cannot receive a reply.</p>
        )}
      </Card>
    </div>
  );
}
