import { randomUUID } from "node:crypto";
import { href, Link } from "react-router";
import { EditGroupPanel } from "#app/components/contacts/edit-panels.tsx";
import { GroupSendProgress } from "#app/components/contacts/group-send-progress.tsx";
import { MessagePanel } from "#app/components/contacts/message-panel.tsx";
import { PanelledTable, RowActionCells } from "#app/components/contacts/list-table.tsx";
import { DeleteConfirmRow, PanelRow } from "#app/components/contacts/panels.tsx";
import { ScheduleSmsForm } from "#app/components/scheduling/schedule-sms-form.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Notice, PageHeader } from "#app/components/ui/page.tsx";
import { LabelledCell } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { groupsListAction } from "#app/routes/sms/forms/contacts.server.ts";
import { getGroupSendReport } from "#app/modules/group-sends/group-send.server.ts";
import { type Group, getGroup, groupMemberCounts, listGroups } from "#app/modules/contacts/groups.server.ts";
import { GROUPS_PATH, type ListPanel, type ListQuery, listHref, readListQuery, TEXT } from "#app/web/contact-lists.ts";
import { scheduleFormLoaderData } from "#app/routes/sms/forms/schedule-sms.server.ts";
import { templateStart } from "#app/routes/sms/forms/templates.server.ts";
import { TemplatePicker } from "#app/components/templates/template-picker.tsx";
import { templateQuoteOf } from "#app/modules/templates/quote.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";
import { countActiveGroupSchedules } from "#app/modules/scheduling/schedules.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { logUnexpected } from "#app/web/unexpected-failure.server.ts";
import { ANY_DESTINATION, creditsPerSegmentIn, isUniform, type PriceList } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import type { Route } from "./+types/account-groups";

/** The send panel's cost line: one price for every member, or the note that members are priced by destination. */
const groupPricing = (prices: PriceList) => ({
  creditsPerSegment: creditsPerSegmentIn(prices, ANY_DESTINATION),
  pricesVary: !isUniform(prices),
});

export const meta: Route.MetaFunction = () => [{ title: "Groups | SMS Gateway" }];

// Name, Description, SMS Gateway, Actions.
const COLUMNS = 4;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readListQuery(request.url);
  let list;
  try {
    list = await listGroups(user.id, { page: query.page });
  } catch (error) {
    // The screen stays, with the spec's message in place of the list.
    logUnexpected(TEXT.groupsFetchError, error);
    return { fetchError: TEXT.groupsFetchError };
  }
  let panel = null;
  if (query.panel && query.id) {
    // A panel opened by URL must be for one of the user's groups (and sends).
    const group = list.groups.find((g) => g.id === query.id) ?? (await getGroup(user.id, query.id));
    if (!group) throw notFound();
    const report = query.panel === "sent" && query.send ? await getGroupSendReport(user.id, query.send) : null;
    if (query.panel === "sent" && report?.groupId !== group.id) throw notFound();
    panel = {
      kind: query.panel,
      group,
      report,
      activeMembers: query.panel === "send" ? (await groupMemberCounts(user.id, group.id)).active : 0,
      pricing: query.panel === "send" ? groupPricing(await currentPriceList()) : null,
      // One key per opened send form: posting it twice starts one send.
      requestKey: query.panel === "send" ? randomUUID() : undefined,
      schedule: query.panel === "schedule" ? await scheduleFormLoaderData(user) : null,
      senders: query.panel === "send" ? await sendingSenders(user.id) : [],
      // Deleting the group cancels these.
      activeSchedules: query.panel === "delete" ? await countActiveGroupSchedules(user.id, group.id) : 0,
      template: query.panel === "send" || query.panel === "schedule" ? await templateStart(request, user.id) : null,
    };
  }
  return { list, query: { ...query, page: list.page }, panel, maxSegments: getEnv().SMS_MAX_SEGMENTS };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return groupsListAction(request, user);
}

type LoaderData = Exclude<Route.ComponentProps["loaderData"], { fetchError: string }>;

function GroupPanel({
  loaderData,
  actionData,
}: {
  loaderData: LoaderData;
  actionData: Route.ComponentProps["actionData"];
}) {
  const { panel, query, maxSegments } = loaderData;
  if (!panel) return null;
  const { group } = panel;
  const closeHref = listHref(GROUPS_PATH, { page: query.page });
  switch (panel.kind) {
    case "edit":
      return (
        <PanelRow colSpan={COLUMNS} title={`Edit Group: ${group.name}`}>
          <EditGroupPanel group={group} cancelHref={closeHref} lastResult={actionData} />
        </PanelRow>
      );
    case "send":
      return (
        <PanelRow colSpan={COLUMNS} title={`Send SMS to the group ${group.name}`}>
          {group.members === 0 ? (
            <Notice tone="warning" className="mb-4">
              This group has no contacts yet: add contacts to it (Create New Contact, or Edit Contact) before sending.
            </Notice>
          ) : null}
          {panel.template ? (
            <TemplatePicker
              formId={`send-${group.id}`}
              templates={panel.template.templates}
              selected={panel.template.templateId}
              keep={{ page: query.page, panel: "send", id: group.id }}
            />
          ) : null}
          <MessagePanel
            key={panel.template?.templateId ?? "none"}
            id={group.id}
            defaultMessage={panel.template?.templateBody}
            templateQuote={templateQuoteOf(actionData)}
            recipient={`every active contact of ${group.name} (${pluralize(group.members, "contact")})`}
            recipients={panel.activeMembers}
            creditsPerSegment={panel.pricing?.creditsPerSegment}
            pricesVary={panel.pricing?.pricesVary}
            maxSegments={maxSegments}
            requestKey={panel.requestKey}
            senders={panel.senders}
            cancelHref={closeHref}
            lastResult={actionData}
          />
        </PanelRow>
      );
    case "sent":
      return panel.report ? (
        <PanelRow colSpan={COLUMNS} title={`Sending to the group ${group.name}`}>
          <GroupSendProgress
            report={panel.report}
            refreshHref={listHref(GROUPS_PATH, {
              page: query.page,
              panel: "sent",
              id: group.id,
              send: panel.report.id,
            })}
            closeHref={closeHref}
          />
        </PanelRow>
      ) : null;
    case "schedule":
      return panel.schedule ? (
        <PanelRow colSpan={COLUMNS} title={`Schedule SMS to the group ${group.name}`}>
          {panel.template ? (
            <TemplatePicker
              formId={`schedule-${group.id}`}
              templates={panel.template.templates}
              selected={panel.template.templateId}
              keep={{ page: query.page, panel: "schedule", id: group.id }}
            />
          ) : null}
          <ScheduleSmsForm
            key={panel.template?.templateId ?? "none"}
            {...panel.schedule}
            message={panel.template?.templateBody}
            templateQuote={templateQuoteOf(actionData)}
            recipient={{
              id: group.id,
              label: `every active contact of ${group.name} at each send (${pluralize(group.members, "contact")} now)`,
              cancelHref: closeHref,
            }}
            lastResult={actionData}
          />
        </PanelRow>
      ) : null;
    case "delete":
      return (
        <DeleteConfirmRow
          colSpan={COLUMNS}
          title={`Delete Group: ${group.name}`}
          question={TEXT.confirmDeleteGroup}
          detail={
            panel.activeSchedules > 0
              ? `Its ${pluralize(panel.activeSchedules, "scheduled SMS", "scheduled SMS")} will be cancelled.`
              : undefined
          }
          id={group.id}
          cancelHref={closeHref}
          lastResult={actionData}
        />
      );
  }
}

function GroupRow({ group, query }: { group: Group; query: ListQuery }) {
  const open = (panel: ListPanel) => listHref(GROUPS_PATH, { page: query.page, panel, id: group.id });
  return (
    <tr data-testid="group-row" className="block py-2 sm:table-row sm:py-0">
      <LabelledCell label="Name">
        <span className="font-medium break-words">{group.name}</span>
        <Link to={listHref(href("/sms/accountContacts"), { group: group.id })} className="block text-xs">
          {pluralize(group.members, "contact")}
        </Link>
      </LabelledCell>
      <LabelledCell label="Description" className="sm:max-w-md">
        <p className="break-words whitespace-pre-wrap">{group.description}</p>
      </LabelledCell>
      <RowActionCells noun="Group" href={open} />
    </tr>
  );
}

export default function AccountGroups({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Groups"
        actions={
          <>
            <ButtonLink to={href("/sms/createGroup")}>Create New Group</ButtonLink>
            <ButtonLink to={href("/sms/sendSms")} variant="secondary">
              Back
            </ButtonLink>
          </>
        }
      />
      {"fetchError" in loaderData ? (
        <Notice tone="danger">
          <p role="alert">{loaderData.fetchError}</p>
        </Notice>
      ) : (
        <GroupList loaderData={loaderData} actionData={actionData} />
      )}
    </div>
  );
}

function GroupList({
  loaderData,
  actionData,
}: {
  loaderData: LoaderData;
  actionData: Route.ComponentProps["actionData"];
}) {
  const { list, query, panel } = loaderData;
  return (
    <PanelledTable
      columns={["Name", "Description", "SMS Gateway", "Actions"]}
      items={list.groups}
      empty="You have no groups yet."
      row={(group) => <GroupRow group={group} query={query} />}
      panelFor={panel?.group.id ?? null}
      panel={<GroupPanel loaderData={loaderData} actionData={actionData} />}
      page={list.page}
      totalPages={list.totalPages}
      pageHref={(n) => listHref(GROUPS_PATH, { page: n })}
      label="Group pages"
    />
  );
}
