import { data, Link } from "react-router";
import { EditContactPanel } from "../../components/contacts/edit-panels.tsx";
import { MessagePanel } from "../../components/contacts/message-panel.tsx";
import { DeleteConfirmRow, PanelRow } from "../../components/contacts/panels.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Notice, PageHeader } from "../../components/ui/page.tsx";
import { Pager } from "../../components/ui/pager.tsx";
import { LabeledTd, Table, Td, Th } from "../../components/ui/table.tsx";
import { requireUser } from "../../modules/auth/guards.server.ts";
import { type Contact, getContact, listContacts } from "../../modules/contacts/contacts.server.ts";
import { NotFoundError } from "../../modules/contacts/errors.ts";
import { CONTACTS_PATH, contactsListAction } from "../../modules/contacts/forms.server.ts";
import { getGroup, listGroupChoices } from "../../modules/contacts/groups.server.ts";
import { type ListQuery, listHref, readListQuery, scheduleHref, TEXT } from "../../modules/contacts/schemas.ts";
import { env } from "../../utils/env.server.ts";
import { formatNumber } from "../../utils/misc.ts";
import type { Route } from "./+types/account-contacts";

export const meta: Route.MetaFunction = () => [{ title: "Contacts | SMS Gateway" }];

const COLUMNS = 6;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readListQuery(request.url);
  let list;
  try {
    list = listContacts(user.id, { page: query.page, groupId: query.group });
  } catch (error) {
    if (error instanceof NotFoundError) throw data(null, { status: 404 });
    throw error;
  }
  const filter = query.group ? getGroup(user.id, query.group) : null;
  // A panel opened by URL must be for one of the user's contacts.
  let panel: { kind: NonNullable<ListQuery["panel"]>; contact: Contact } | null = null;
  if (query.panel && query.panel !== "sent" && query.id) {
    const contact = list.contacts.find((c) => c.id === query.id) ?? getContact(user.id, query.id);
    if (!contact) throw data(null, { status: 404 });
    panel = { kind: query.panel, contact };
  }
  return {
    list,
    query: { ...query, page: list.page },
    filter: filter ? { id: filter.id, name: filter.name } : null,
    panel,
    groups: panel?.kind === "edit" ? listGroupChoices(user.id) : [],
    defaultCountry: env.DEFAULT_COUNTRY,
    maxSegments: env.SMS_MAX_SEGMENTS,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return contactsListAction(request, user.id);
}

type LoaderData = Route.ComponentProps["loaderData"];

function ContactPanel({ loaderData, actionData }: { loaderData: LoaderData; actionData: Route.ComponentProps["actionData"] }) {
  const { panel, query, groups, defaultCountry, maxSegments } = loaderData;
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
          <MessagePanel id={contact.id} recipient={who} maxSegments={maxSegments} cancelHref={closeHref} lastResult={actionData} />
        </PanelRow>
      );
    case "schedule":
      return (
        <PanelRow colSpan={COLUMNS} title={`Schedule SMS to ${contact.name}`}>
          <p className="text-sm text-slate-700">
            Schedule a message (once or repeating) to {who} on the Schedule SMS screen, with the number filled in.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <ButtonLink to={scheduleHref({ phone: contact.phone })}>Schedule SMS</ButtonLink>
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
          title={`Delete Contact: ${contact.name}`}
          question={TEXT.confirmDeleteContact}
          id={contact.id}
          cancelHref={closeHref}
        />
      );
    default:
      return null;
  }
}

function ContactRow({ contact, query }: { contact: Contact; query: ListQuery }) {
  const open = (panel: ListQuery["panel"]) => listHref(CONTACTS_PATH, { page: query.page, group: query.group, panel, id: contact.id });
  const link = { size: "sm", variant: "secondary", preventScrollReset: true } as const;
  return (
    <tr data-testid="contact-row" className="block py-2 sm:table-row sm:py-0">
      <LabeledTd label="Name" className="font-medium">
        <span className="break-words">{contact.name}</span>
        {contact.status ? null : (
          <Badge tone="warning" className="ml-2">
            Inactive
          </Badge>
        )}
      </LabeledTd>
      <LabeledTd label="Email" className="break-all">
        {contact.email}
      </LabeledTd>
      <LabeledTd label="Phone Number" className="whitespace-nowrap">
        {contact.phone}
      </LabeledTd>
      <LabeledTd label="Groups">
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
            Edit Contact
          </ButtonLink>
          <ButtonLink to={open("delete")} {...link} variant="danger">
            Delete Contact
          </ButtonLink>
        </span>
      </LabeledTd>
    </tr>
  );
}

export default function AccountContacts({ loaderData, actionData }: Route.ComponentProps) {
  const { list, query, filter, panel } = loaderData;
  const page = (n: number) => listHref(CONTACTS_PATH, { page: n, group: query.group });
  // A panel opened by URL for a contact on another page shows above the table.
  const panelOffPage = panel && !list.contacts.some((c) => c.id === panel.contact.id);
  return (
    <div>
      <PageHeader
        subtitle="SMS Gateway"
        title="Contacts"
        actions={
          <>
            <ButtonLink to="/sms/createContact">Create New Contact</ButtonLink>
            <ButtonLink to="/sms/importContacts" variant="secondary">
              Import CSV
            </ButtonLink>
            <ButtonLink to="/sms/sendSms" variant="secondary">
              Back
            </ButtonLink>
          </>
        }
      />
      {filter ? (
        <Notice className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <span>
            Contacts in the group <strong>{filter.name}</strong> ({formatNumber(list.total)}).
          </span>
          <Link to={CONTACTS_PATH}>Show all contacts</Link>
        </Notice>
      ) : null}
      {panelOffPage ? (
        <Table className="mb-4">
          <tbody>
            <ContactPanel loaderData={loaderData} actionData={actionData} />
          </tbody>
        </Table>
      ) : null}
      <Table>
        <thead className="hidden sm:table-header-group">
          <tr>
            <Th>Name</Th>
            <Th>Email</Th>
            <Th>Phone Number</Th>
            <Th>Groups</Th>
            <Th>SMS Gateway</Th>
            <Th>Actions</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.contacts.length === 0 ? (
            <tr>
              <Td colSpan={COLUMNS} className="py-8 text-center text-slate-600">
                {filter ? "This group has no contacts yet." : "You have no contacts yet."}
              </Td>
            </tr>
          ) : (
            list.contacts.map((contact) => [
              <ContactRow key={contact.id} contact={contact} query={query} />,
              panel?.contact.id === contact.id ? <ContactPanel key={`panel-${contact.id}`} loaderData={loaderData} actionData={actionData} /> : null,
            ])
          )}
        </tbody>
      </Table>
      <Pager
        page={list.page}
        totalPages={list.totalPages}
        previousHref={list.page > 1 ? page(list.page - 1) : null}
        nextHref={list.page < list.totalPages ? page(list.page + 1) : null}
        label="Contact pages"
      />
    </div>
  );
}
