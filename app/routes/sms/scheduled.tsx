import { Form, href, Link, useLocation } from "react-router";
import { BackButton } from "#app/components/ui/back-button.tsx";
import { Badge, type BadgeTone } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { ActionsTh, LabelledCell, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { describeGroupSend, type GroupSendReport } from "#app/modules/group-sends/group-send.ts";
import { describeRecurrence } from "#app/modules/scheduling/recurrence.ts";
import { cancelScheduleFormAction } from "#app/routes/sms/forms/schedule-sms.server.ts";
import {
  getSchedule,
  listSchedules,
  type Schedule,
  type ScheduleStatus,
} from "#app/modules/scheduling/schedules.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { cn } from "#app/web/class-names.ts";
import { positiveInt, positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/scheduled";

export const meta: Route.MetaFunction = () => [{ title: "Scheduled SMS | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const list = await listSchedules(user.id, positiveIntParam(params, "page") ?? 1);
  // ?cancel=<id> asks for confirmation (a GET changes nothing); someone else's id is not found.
  const cancelId = params.get("cancel");
  let confirming: Schedule | null = null;
  if (cancelId !== null) {
    confirming = await getSchedule(user.id, positiveInt(cancelId) ?? 0);
    if (!confirming) throw notFound();
  }
  return { ...list, timeZone: user.timeZone, confirming: confirming?.status === "active" ? confirming : null };
}

export async function action({ request }: Route.ActionArgs) {
  return cancelScheduleFormAction(request, await requireUser(request));
}

const STATUS: Record<ScheduleStatus, { label: string; tone: BadgeTone }> = {
  active: { label: "Active", tone: "primary" },
  completed: { label: "Completed", tone: "success" },
  cancelled: { label: "Cancelled", tone: "secondary" },
};

/** Whom it goes to, in a sentence: "+447911123456", "the group Friends". */
function recipientOf({ target }: Schedule): string {
  if (target.kind === "phone") return target.to;
  return target.groupName === null ? "a deleted group" : `the group ${target.groupName}`;
}

function RecipientCell({ schedule: { target } }: { schedule: Schedule }) {
  if (target.kind === "phone") return <>{target.to}</>;
  return (
    <>
      {target.groupName ?? <span className="text-slate-500">Deleted group</span>}
      <span className="block text-xs text-slate-500">Group</span>
    </>
  );
}

/** What a group schedule's latest occurrence did (a number's messages are in the Message History). */
function LastGroupSend({ report, timeZone }: { report: GroupSendReport; timeZone: string }) {
  const failed = report.status === "failed" || report.stopReason !== null;
  return (
    <p className={cn("mt-1 text-xs", failed ? "text-red-700" : "text-slate-500")} data-testid="last-group-send">
      Last run {report.occurrenceAt === null ? "" : formatDateTime(report.occurrenceAt, timeZone)}:{" "}
      {describeGroupSend(report)}
    </p>
  );
}

function ConfirmCancel({ schedule, backTo }: { schedule: Schedule; backTo: string }) {
  return (
    <Card className="mb-6">
      <h2 id="confirm-cancel" className="text-lg font-semibold text-slate-900">
        Cancel the scheduled SMS to {recipientOf(schedule)}?
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Its future messages will not be sent. Messages it has already sent are not affected.
      </p>
      <p className="mt-2 line-clamp-2 text-sm whitespace-pre-wrap text-slate-500">{schedule.body}</p>
      <Form method="post" className="mt-4 flex flex-wrap gap-2" aria-labelledby="confirm-cancel">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="id" value={schedule.id} />
        <Button type="submit" variant="danger">
          Yes, cancel it
        </Button>
        <ButtonLink to={backTo} variant="secondary">
          Keep it
        </ButtonLink>
      </Form>
    </Card>
  );
}

export default function Scheduled({ loaderData }: Route.ComponentProps) {
  const { schedules, page, totalPages, timeZone, confirming } = loaderData;
  const location = useLocation();
  const pageQuery = page > 1 ? `page=${page}` : "";
  const withCancel = (id: number) => `?${pageQuery ? `${pageQuery}&` : ""}cancel=${id}`;
  const backTo = `${location.pathname}${pageQuery ? `?${pageQuery}` : ""}`;
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Scheduled SMS"
        actions={
          <>
            <ButtonLink to={href("/sms/scheduleSms")}>Schedule SMS</ButtonLink>
            <BackButton fallback={href("/sms/scheduleSms")} />
          </>
        }
      />
      {confirming ? <ConfirmCancel schedule={confirming} backTo={backTo} /> : null}
      <Table>
        <thead className="hidden sm:table-header-group">
          <tr>
            <Th>
              Next Run <span className="font-normal normal-case">({timeZone})</span>
            </Th>
            <Th>Repeat</Th>
            <Th>End Date</Th>
            <Th>Recipient</Th>
            <Th>Message</Th>
            <Th>Status</Th>
            <ActionsTh />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {schedules.length === 0 ? (
            <tr>
              <Td colSpan={7} className="py-8 text-center text-slate-600">
                You have no scheduled messages. <Link to={href("/sms/scheduleSms")}>Schedule one</Link>.
              </Td>
            </tr>
          ) : (
            schedules.map((s) => (
              <tr key={s.id} data-testid="schedule-row" className="block py-2 sm:table-row sm:py-0">
                <LabelledCell label={`Next Run (${timeZone})`} className="whitespace-nowrap">
                  {s.nextRunAt === null ? (
                    "—"
                  ) : (
                    <time dateTime={new Date(s.nextRunAt).toISOString()}>{formatDateTime(s.nextRunAt, timeZone)}</time>
                  )}
                </LabelledCell>
                <LabelledCell label="Repeat">
                  {describeRecurrence(s)}
                  {s.timeZone !== timeZone ? <span className="block text-xs text-slate-500">{s.timeZone}</span> : null}
                </LabelledCell>
                <LabelledCell label="End Date" className="whitespace-nowrap">
                  {s.repeat === "none" ? "—" : (s.endDate ?? "No end date")}
                </LabelledCell>
                <LabelledCell label="Recipient" className="sm:whitespace-nowrap">
                  <RecipientCell schedule={s} />
                </LabelledCell>
                <LabelledCell label="Message" className="sm:min-w-56">
                  <p className="line-clamp-3 whitespace-pre-wrap [overflow-wrap:anywhere]">{s.body}</p>
                </LabelledCell>
                <LabelledCell label="Status">
                  <Badge tone={STATUS[s.status].tone}>{STATUS[s.status].label}</Badge>
                  {s.finishedAt !== null ? (
                    <p className="mt-1 text-xs whitespace-nowrap text-slate-500">
                      {formatDateTime(s.finishedAt, timeZone)}
                    </p>
                  ) : null}
                  {s.lastGroupSend ? <LastGroupSend report={s.lastGroupSend} timeZone={timeZone} /> : null}
                </LabelledCell>
                <LabelledCell label="Actions">
                  {s.status === "active" ? (
                    <ButtonLink
                      to={withCancel(s.id)}
                      variant="secondary"
                      size="sm"
                      aria-label={`Cancel the scheduled SMS to ${recipientOf(s)}`}
                    >
                      Cancel
                    </ButtonLink>
                  ) : null}
                </LabelledCell>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <NumberedPager page={page} totalPages={totalPages} label="Scheduled SMS pages" />
    </div>
  );
}
