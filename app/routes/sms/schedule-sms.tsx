import { href, redirect, useLocation } from "react-router";
import { ScheduleSmsForm } from "#app/components/scheduling/schedule-sms-form.tsx";
import { SendSmsHowTo } from "#app/components/sms/send-sms-form.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { notFound } from "#app/web/responses.server.ts";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { getGroup } from "#app/modules/contacts/groups.server.ts";
import { GROUPS_PATH, listHref } from "#app/web/contact-lists.ts";
import { scheduleFormLoaderData, scheduleSmsFormAction } from "#app/routes/sms/forms/schedule-sms.server.ts";
import { templateStart } from "#app/routes/sms/forms/templates.server.ts";
import { TemplatePicker } from "#app/components/templates/template-picker.tsx";
import type { Route } from "./+types/schedule-sms";

export const meta: Route.MetaFunction = () => [{ title: "Schedule SMS | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  // A group is scheduled from its panel on the groups list; another user's group is not found here either.
  const groupId = params.get("groupId");
  if (groupId !== null) {
    const group = await getGroup(user.id, Number(groupId));
    if (!group) throw notFound();
    return redirect(listHref(GROUPS_PATH, { panel: "schedule", id: group.id }));
  }
  // ?phoneNumber= fills in the phone field (validated like typed input when the form is posted).
  return {
    ...(await scheduleFormLoaderData(user)),
    phoneNumber: params.get("phoneNumber")?.slice(0, 40) ?? undefined,
    template: await templateStart(request, user.id),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return scheduleSmsFormAction(request, user);
}

export default function ScheduleSms({ loaderData, actionData }: Route.ComponentProps) {
  // A new location after a successful post remounts the form, so it comes back clean.
  const location = useLocation();
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Schedule SMS Message"
        actions={
          <ButtonLink to={href("/sms/scheduled")} variant="ghost">
            Scheduled SMS
          </ButtonLink>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-4">
          <TemplatePicker
            formId="schedule-sms"
            templates={loaderData.template.templates}
            selected={loaderData.template.templateId}
            keep={{ phoneNumber: loaderData.phoneNumber }}
          />
          <ScheduleSmsForm
            key={location.key}
            message={loaderData.template.templateBody}
            config={loaderData.config}
            timeZone={loaderData.timeZone}
            timeZones={loaderData.timeZones}
            phoneNumber={loaderData.phoneNumber}
            senders={loaderData.senders}
            lastResult={actionData}
          />
        </div>
        <SendSmsHowTo
          config={loaderData.config}
          title="How to schedule an SMS"
          submitStep="Pick the start date and time, and how often it repeats (with an end date if you like), then press Add SMS."
        />
      </div>
    </div>
  );
}
