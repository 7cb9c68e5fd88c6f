import { href, Link } from "react-router";
import { EditContactPanel } from "#app/components/contacts/edit-panels.tsx";
import { MessagePanel } from "#app/components/contacts/message-panel.tsx";
import { PanelledTable, RowActionCells } from "#app/components/contacts/list-table.tsx";
import { DeleteConfirmRow, PanelRow } from "#app/components/contacts/panels.tsx";
import { ScheduleSmsForm } from "#app/components/scheduling/schedule-sms-form.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Notice, PageHeader } from "#app/components/ui/page.tsx";
import { LabelledCell } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { type Contact, getContact, listContacts } from "#app/modules/contacts/contacts.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { contactsListAction } from "#app/routes/sms/forms/contacts.server.ts";
import { getGroup, listGroupChoices } from "#app/modules/contacts/groups.server.ts";
import {
  CONTACTS_PATH,
  type ListPanel,
  type ListQuery,
  listHref,
  readListQuery,
  TEXT,
} from "#app/web/contact-lists.ts";
import { scheduleFormLoaderData } from "#app/routes/sms/forms/schedule-sms.server.ts";
import { sendingSenders } from "#app/modules/senders/senders.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { logUnexpected } from "#app/web/unexpected-failure.server.ts";
import { templateStart } from "#app/routes/sms/forms/templates.server.ts";
import { TemplatePicker } from "#app/components/templates/template-picker.tsx";
import { creditsPerSegmentTo } from "#app/modules/pricing/prices.server.ts";
import type { Route } from "./+types/account-contacts";

export const meta: Route.MetaFunction = () => [{ title: "Contacts | SMS Gateway" }];

// Name, Email, Phone Number, Groups, SMS Gateway, Actions.
const COLUMNS = 6;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readListQuery(request.url);
  let list;
  let filter;
  try {
    list = await listContacts(user.id, { page: query.page, groupId: query.group });
    filter = query.group ? await getGroup(user.id, query.group) : null;
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound();
    // The screen stays, with the spec's message in place of the list.
    logUnexpected(TEXT.contactsFetchError, error);
    return { fetchError: TEXT.contactsFetchError };
  }
  // A panel opened by URL must be for one of the user's contacts.
  let panel: { kind: NonNullable<ListQuery["panel"]>; contact: Contact } | null = null;
  if (query.panel && query.panel !== "sent" && query.id) {
    const contact = list.contacts.find((c) => c.id === query.id) ?? (await getContact(user.id, query.id));
    if (!contact) throw notFound();
    panel = { kind: query.panel, contact };
  }
  return {
    list,
    query: { ...query, page: list.page },
    filter: filter ? { id: filter.id, name: filter.name } : null,
    panel,
    groups: panel?.kind === "edit" ? await listGroupChoices(user.id) : [],
    schedule: panel?.kind === "schedule" ? await scheduleFormLoaderData(user) : null,
    senders: panel?.kind === "send" ? await sendingSenders(user.id) : [],
    creditsPerSegment: panel?.kind === "send" ? await creditsPerSegmentTo(panel.contact.phone) : undefined,
    template: panel?.kind === "send" || panel?.kind === "schedule" ? await templateStart(request, user.id) : null,
    defaultCountry: getEnv().DEFAULT_COUNTRY,
    maxSegments: getEnv().SMS_MAX_SEGMENTS,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return contactsListAction(request, user);
}

type LoaderData = Exclude<Route.ComponentProps["loaderData"], { fetchError: string }>;

function ContactPanel({
  loaderData,
  actionData,
}: {
  loaderData: LoaderData;
  actionData: Route.ComponentProps["actionData"];
}) {
  const { panel, query, groups, schedule, senders, defaultCountry, maxSegments, template, creditsPerSegment } =
    loaderData;
  if (!panel) return null;
  const { contact } = panel;
  const closeHref = listHref(CONTACTS_PATH, { page: query.page, group: query.group });
  const who = `${contact.name} (${contact.phone})`;
  switch (panel.kind) {
    case "edit":
      return (
        <PanelRow colSpan={COLUMNS} title={`Edit Contact: ${contact.name}`}>
          <EditContactPanel
            contact={contact}
            groups={groups}
            defaultCountry={defaultCountry}
            cancelHref={closeHref}
            lastResult={actionData}
          />
        </PanelRow>
      );
    case "send":
      return (
        <PanelRow colSpan={COLUMNS} title={`Send SMS to ${contact.name}`}>
          {template ? (
            <TemplatePicker
              formId={`send-${contact.id}`}
              templates={template.templates}
              selected={template.templateId}
              keep={{ page: query.page, group: query.group, panel: "send", id: contact.id }}
            />
          ) : null}
          <MessagePanel
            key={template?.templateId ?? "none"}
            defaultMessage={template?.templateBody}
            id={contact.id}
            recipient={who}
            senders={senders}
            creditsPerSegment={creditsPerSegment}
            maxSegments={maxSegments}
            cancelHref={closeHref}
            lastResult={actionData}
          />
        </PanelRow>
      );
    case "schedule":
      return schedule ? (
        <PanelRow colSpan={COLUMNS} title={`Schedule SMS to ${contact.name}`}>
          {template ? (
            <TemplatePicker
              formId={`schedule-${contact.id}`}
              templates={template.templates}
              selected={template.templateId}
              keep={{ page: query.page, group: query.group, panel: "schedule", id: contact.id }}
            />
          ) : null}
          <ScheduleSmsForm
            key={template?.templateId ?? "none"}
            message={template?.templateBody}
            {...schedule}
            recipient={{ id: contact.id, label: who, cancelHref: closeHref }}
            lastResult={actionData}
          />
        </PanelRow>
      ) : null;
    case "delete":
      return (
        <DeleteConfirmRow
          colSpan={COLUMNS}
          title={`Delete Contact: ${contact.name}`}
          question={TEXT.confirmDeleteContact}
          id={contact.id}
          cancelHref={closeHref}
          lastResult={actionData}
        />
      );
    default:
      return null;
  }
}

function ContactRow({ contact, query }: { contact: Contact; query: ListQuery }) {
  const open = (panel: ListPanel) =>
    listHref(CONTACTS_PATH, { page: query.page, group: query.group, panel, id: contact.id });
  return (
    <tr data-testid="contact-row" className="block py-2 sm:table-row sm:py-0">
      <LabelledCell label="Name" className="font-medium">
        <span className="break-words">{contact.name}</span>
        {contact.status ? null : (
          <Badge tone="warning" className="ml-2">
            Inactive
          </Badge>
        )}
      </LabelledCell>
      <LabelledCell label="Email" className="break-all">
        {contact.email}
      </LabelledCell>
      <LabelledCell label="Phone Number" className="whitespace-nowrap">
        {contact.phone}
      </LabelledCell>
      <LabelledCell label="Groups">
        {contact.groups.length === 0 ? (
          <span className="text-slate-400">None</span>
        ) : (
          <span className="flex flex-wrap gap-1">
            {contact.groups.map((g) => (
              <Link key={g.id} to={listHref(CONTACTS_PATH, { group: g.id })} className="no-underline">
                <Badge>{g.name}</Badge>
              </Link>
            ))}
          </span>
        )}
      </LabelledCell>
      <RowActionCells noun="Contact" href={open} />
    </tr>
  );
}

export default function AccountContacts({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Contacts"
        actions={
          <>
            <ButtonLink to={href("/sms/createContact")}>Create New Contact</ButtonLink>
            <ButtonLink to={href("/sms/importContacts")} variant="secondary">
              Import CSV
            </ButtonLink>
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
        <ContactList loaderData={loaderData} actionData={actionData} />
      )}
    </div>
  );
}

function ContactList({
  loaderData,
  actionData,
}: {
  loaderData: LoaderData;
  actionData: Route.ComponentProps["actionData"];
}) {
  const { list, query, filter, panel } = loaderData;
  return (
    <>
      {filter ? (
        <Notice className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <span>
            Contacts in the group <strong>{filter.name}</strong> ({formatNumber(list.total)}).
          </span>
          <Link to={CONTACTS_PATH}>Show all contacts</Link>
        </Notice>
      ) : null}
      <PanelledTable
        columns={["Name", "Email", "Phone Number", "Groups", "SMS Gateway", "Actions"]}
        items={list.contacts}
        empty={filter ? "This group has no contacts yet." : "You have no contacts yet."}
        row={(contact) => <ContactRow contact={contact} query={query} />}
        panelFor={panel?.contact.id ?? null}
        panel={<ContactPanel loaderData={loaderData} actionData={actionData} />}
        page={list.page}
        totalPages={list.totalPages}
        pageHref={(n) => listHref(CONTACTS_PATH, { page: n, group: query.group })}
        label="Contact pages"
      />
    </>
  );
}
