import { data, Form, href, useNavigation } from "react-router";
import { z } from "zod";
import { SecurityNav } from "#app/components/account/security-nav.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { endOtherSessions, endOwnSession, listOwnSessions } from "#app/modules/auth/session.server.ts";
import { describeBrowser } from "#app/modules/auth/user-agent.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/sessions";

export const meta: Route.MetaFunction = () => [{ title: "Sessions | SMS Gateway" }];

const SessionIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("end"), session: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("end-others") }),
]);

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const sessions = (await listOwnSessions(request, user.id)).map((session) => ({
    handle: session.handle,
    current: session.current,
    browser: describeBrowser(session.userAgent),
    ip: session.ip ?? "unknown",
    createdAt: session.createdAt.getTime(),
    lastSeenAt: session.lastSeenAt.getTime(),
  }));
  return { sessions, timeZone: user.timeZone };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = SessionIntent.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown action" }, { status: 400 });
  if (parsed.data.intent === "end-others") {
    const ended = await endOtherSessions(request, user.id);
    return redirectWithToast(href("/account/sessions"), {
      description: ended ? `Signed out ${ended} other session${ended === 1 ? "" : "s"}.` : "No other sessions.",
    });
  }
  // Another account's session, or one already gone: 404, as for any id that is not one's own.
  if (!(await endOwnSession(user.id, parsed.data.session))) throw notFound();
  return redirectWithToast(href("/account/sessions"), { description: "That session is signed out." });
}

export default function Sessions({ loaderData }: Route.ComponentProps) {
  const { sessions, timeZone } = loaderData;
  const navigation = useNavigation();
  const time = (ms: number) => formatDateTime(ms, timeZone);
  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader subtitle="Account" title="Sessions" />
      <SecurityNav />
      <Card className="space-y-4">
        <p className="text-sm text-slate-700">
          Where your account is signed in. Sign out any you do not recognise, then change your password. Times are in{" "}
          {timeZone}.
        </p>
        <ul className="divide-y divide-slate-200">
          {sessions.map((session) => (
            <li
              key={session.handle}
              data-testid="session"
              className="flex flex-wrap items-center justify-between gap-3 py-3"
            >
              <div className="text-sm">
                <p className="font-medium text-slate-900">
                  {session.browser} {session.current ? <Badge tone="success">This browser</Badge> : null}
                </p>
                <p className="text-slate-600">
                  Address {session.ip} · signed in {time(session.createdAt)} · last seen {time(session.lastSeenAt)}
                </p>
              </div>
              {session.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="end" />
                  <input type="hidden" name="session" value={session.handle} />
                  <Button
                    type="submit"
                    variant="secondary"
                    size="sm"
                    disabled={navigation.state === "submitting"}
                    aria-label={`Sign out ${session.browser}, last seen ${time(session.lastSeenAt)}`}
                  >
                    Sign out
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {others ? (
          <Form method="post">
            <input type="hidden" name="intent" value="end-others" />
            <Button type="submit" variant="danger" disabled={navigation.state === "submitting"}>
              Sign out all other sessions
            </Button>
          </Form>
        ) : null}
      </Card>
    </div>
  );
}
