import { randomUUID } from "node:crypto";
import { data, Link } from "react-router";
import { EditGroupPanel } from "../../components/contacts/edit-panels.tsx";
import { GroupSendProgress } from "../../components/contacts/group-send-progress.tsx";
import { MessagePanel } from "../../components/contacts/message-panel.tsx";
import { DeleteConfirmRow, PanelRow } from "../../components/contacts/panels.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { PageHeader } from "../../components/ui/page.tsx";
import { Pager } from "../../components/ui/pager.tsx";
import { LabeledTd, Table, Td, Th } from "../../components/ui/table.tsx";
import { requireUser } from "../../modules/auth/guards.server.ts";
import { GROUPS_PATH, groupsListAction } from "../../modules/contacts/forms.server.ts";
import { getGroupSendReport } from "../../modules/contacts/group-send.server.ts";
import { type Group, getGroup, groupMemberCounts, listGroups } from "../../modules/contacts/groups.server.ts";
import { type ListQuery, listHref, readListQuery, scheduleHref, TEXT } from "../../modules/contacts/schemas.ts";
import { env } from "../../utils/env.server.ts";
import { pluralize } from "../../utils/misc.ts";
import type { Route } from "./+types/account-groups";

export const meta: Route.MetaFunction = () => [{ title: "Groups | SMS Gateway" }];

const COLUMNS = 4;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readListQuery(request.url);
  const list = listGroups(user.id, { page: query.page });
  let panel = null;
  if (query.panel && query.id) {
    // A panel opened by URL must be for one of the user's groups (and sends).
    const group = list.groups.find((g) => g.id === query.id) ?? getGroup(user.id, query.id);
    if (!group) throw data(null, { status: 404 });
    const report = query.panel === "sent" && query.send ? getGroupSendReport(user.id, query.send) : null;
    if (query.panel === "sent" && report?.groupId !== group.id) throw data(null, { status: 404 });
    panel = {
      kind: query.panel,
      group,
      report,
      activeMembers: query.panel === "send" ? groupMemberCounts(user.id, group.id).active : 0,
      // One key per opened send form: posting it twice starts one send.
      requestKey: query.panel === "send" ? randomUUID() : undefined,
    };
  }
  return { list, query: { ...query, page: list.page }, panel, maxSegments: env.SMS_MAX_SEGMENTS };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return groupsListAction(request, user.id);
}

type LoaderData = Route.ComponentProps["loaderData"];

function GroupPanel({ loaderData, actionData }: { loaderData: LoaderData; actionData: Route.ComponentProps["actionData"] }) {
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
          <MessagePanel
            id={group.id}
            recipient={`every active contact of ${group.name} (${pluralize(group.members, "contact")})`}
            recipients={panel.activeMembers}
            maxSegments={maxSegments}
            requestKey={panel.requestKey}
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
            refreshHref={listHref(GROUPS_PATH, { page: query.page, panel: "sent", id: group.id, send: panel.report.id })}
            closeHref={closeHref}
          />
        </PanelRow>
      ) : null;
    case "schedule":
      return (
        <PanelRow colSpan={COLUMNS} title={`Schedule SMS to the group ${group.name}`}>
          <p className="text-sm text-slate-700">
            Schedule a message (once or repeating) to every contact of {group.name} on the Schedule SMS screen, with the
            group chosen.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <ButtonLink to={scheduleHref({ groupId: group.id })}>Schedule SMS</ButtonLink>
            <ButtonLink to={closeHref} variant="secondary" preventScrollReset>
              Cancel
            </ButtonLink>
          </div>
        </PanelRow>
      );
    case "delete":
      return (
        <DeleteConfirmRow
          colSpan={COLUMNS}
          title={`Delete Group: ${group.name}`}
          question={TEXT.confirmDeleteGroup}
          id={group.id}
          cancelHref={closeHref}
        />
      );
  }
}

function GroupRow({ group, query }: { group: Group; query: ListQuery }) {
  const open = (panel: ListQuery["panel"]) => listHref(GROUPS_PATH, { page: query.page, panel, id: group.id });
  const link = { size: "sm", variant: "secondary", preventScrollReset: true } as const;
  return (
    <tr data-testid="group-row" className="block py-2 sm:table-row sm:py-0">
      <LabeledTd label="Name">
        <span className="font-medium break-words">{group.name}</span>
        <Link to={listHref("/sms/accountContacts", { group: group.id })} className="block text-xs">
          {pluralize(group.members, "contact")}
        </Link>
      </LabeledTd>
      <LabeledTd label="Description" className="sm:max-w-md">
        <p className="break-words whitespace-pre-wrap">{group.description}</p>
      </LabeledTd>
      <LabeledTd label="SMS Gateway">
        <span className="flex flex-wrap gap-2">
          <ButtonLink to={open("send")} {...link} variant="primary">
            Send SMS
          </ButtonLink>
          <ButtonLink to={open("schedule")} {...link}>
            Schedule SMS
          </ButtonLink>
        </span>
      </LabeledTd>
      <LabeledTd label="Actions">
        <span className="flex flex-wrap gap-2">
          <ButtonLink to={open("edit")} {...link}>
            Edit Group
          </ButtonLink>
          <ButtonLink to={open("delete")} {...link} variant="danger">
            Delete Group
          </ButtonLink>
        </span>
      </LabeledTd>
    </tr>
  );
}

export default function AccountGroups({ loaderData, actionData }: Route.ComponentProps) {
  const { list, query, panel } = loaderData;
  const page = (n: number) => listHref(GROUPS_PATH, { page: n });
  const panelOffPage = panel && !list.groups.some((g) => g.id === panel.group.id);
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Groups"
        actions={
          <>
            <ButtonLink to="/sms/createGroup">Create New Group</ButtonLink>
            <ButtonLink to="/sms/sendSms" variant="secondary">
              Back
            </ButtonLink>
          </>
        }
      />
      {panelOffPage ? (
        <Table className="mb-4">
          <tbody>
            <GroupPanel loaderData={loaderData} actionData={actionData} />
          </tbody>
        </Table>
      ) : null}
      <Table>
        <thead className="hidden sm:table-header-group">
          <tr>
            <Th>Name</Th>
            <Th>Description</Th>
            <Th>SMS Gateway</Th>
            <Th>Actions</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.groups.length === 0 ? (
            <tr>
              <Td colSpan={COLUMNS} className="py-8 text-center text-slate-600">
                You have no groups yet.
              </Td>
            </tr>
          ) : (
            list.groups.map((group) => [
              <GroupRow key={group.id} group={group} query={query} />,
              panel?.group.id === group.id ? <GroupPanel key={`panel-${group.id}`} loaderData={loaderData} actionData={actionData} /> : null,
            ])
          )}
        </tbody>
      </Table>
      <Pager
        page={list.page}
        totalPages={list.totalPages}
        previousHref={list.page > 1 ? page(list.page - 1) : null}
        nextHref={list.page < list.totalPages ? page(list.page + 1) : null}
        label="Group pages"
      />
    </div>
  );
}
