// Contacts on the REST API (scope contacts:manage), on the contacts module's own domain functions
// (the screens' rules; the owner's id in every WHERE clause).
import { z } from "zod";
import {
  type Contact,
  createContact,
  deleteContact,
  getContact,
  latestContactId,
  listContactsAfter,
  updateContact,
} from "#app/modules/contacts/contacts.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { namePage, readNamePosition } from "#app/api/cursor.server.ts";
import { ApiError, notFoundError } from "#app/api/errors.ts";
import { fromConfig } from "#app/api/route-helpers.server.ts";
import { cursorField, cursorPage, EXAMPLE_PHONE, idField, idParams, limitField, positiveId } from "#app/api/schemas.ts";
import { TIME_ZONE_HINT } from "#app/modules/quiet-hours/time-zone-field.ts";
import { canonicalTimeZone, isValidTimeZone } from "#app/utils/time-zone.ts";
import { emailField } from "#app/modules/auth/schemas.ts";
import { contactNameField } from "#app/modules/contacts/schemas.ts";
import { phoneField } from "#app/modules/messaging/phone.ts";

const ContactIdParams = idParams("One of your contacts' id (GET /api/v1/contacts).");
const ListContactsQuery = z.strictObject({
  group: positiveId().optional().meta({ description: "Only the members of this group (one of yours)." }),
  cursor: cursorField("contacts"),
  limit: limitField("Contacts"),
});

const GroupRefSchema = z.object({ id: z.int().positive(), name: z.string() });

// Null clears it; left out, it stays as it is (a PATCH) or is null (a new contact).
const apiTimeZoneField = z
  .string()
  .trim()
  .refine(isValidTimeZone, TIME_ZONE_HINT)
  .transform(canonicalTimeZone)
  .nullable()
  .optional()
  .meta({
    description: "An IANA time zone (e.g. Europe/Berlin) for quiet hours; null: the number's country decides.",
    examples: ["Europe/Berlin"],
  });

const requests = fromConfig((config) => {
  const CreateContactRequest = z.strictObject({
    name: contactNameField.meta({ examples: ["Ada Lovelace"] }),
    phone: phoneField(config.defaultCountry).meta({
      description: `Best in E.164; a number without a country code is read as a ${config.defaultCountry} number. One contact per number.`,
      examples: [EXAMPLE_PHONE],
    }),
    email: emailField.meta({ examples: ["ada@example.com"] }),
    timeZone: apiTimeZoneField,
    groupIds: z
      .array(z.int().positive().max(Number.MAX_SAFE_INTEGER))
      .max(1_000)
      .default([])
      .meta({ description: "Ids of your groups the contact joins." }),
  });
  const UpdateContactRequest = CreateContactRequest.extend({
    groupIds: CreateContactRequest.shape.groupIds.unwrap().meta({
      description: "Ids of your groups: the contact's groups become exactly these.",
    }),
    active: z.boolean().meta({ description: "false: the contact opted out; group sends skip it." }),
  })
    .partial()
    .meta({ description: "Only the fields given change." });
  return { CreateContactRequest, UpdateContactRequest };
});

export const ContactSchema = z.object({
  id: idField(12),
  name: z.string().meta({ examples: ["Ada Lovelace"] }),
  phone: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  email: z.string().meta({ examples: ["ada@example.com"] }),
  timeZone: z
    .string()
    .nullable()
    .meta({ description: "Its IANA time zone for quiet hours; null: its number's country decides.", examples: [null] }),
  active: z
    .boolean()
    .meta({ description: "false: the contact opted out; group sends skip it. New contacts are active." }),
  groups: z.array(GroupRefSchema).meta({ description: "The groups it belongs to, A to Z." }),
});
type ApiContact = z.infer<typeof ContactSchema>;

export const ContactListSchema = cursorPage(ContactSchema, "Name A to Z.");

function presentContact({ status, ...contact }: Contact): ApiContact {
  return { ...contact, active: status };
}

const CONTACTS = "c1";

async function listApiContacts(userId: number, query: { group?: number; cursor?: string; limit: number }) {
  const after = readNamePosition(CONTACTS, query.cursor);
  const rows = await listContactsAfter(userId, { after, limit: query.limit + 1, groupId: query.group });
  return namePage(CONTACTS, rows, query.limit, presentContact);
}

async function createApiContact(
  userId: number,
  input: { name: string; phone: string; email: string; timeZone?: string | null; groupIds: number[] },
): Promise<ApiContact> {
  try {
    return presentContact(await createContact(userId, input));
  } catch (error) {
    // The only id in the body: one of them is not one of the user's groups.
    if (error instanceof NotFoundError)
      throw new ApiError("not_found", "No group with one of these ids in your account", { field: "groupIds" });
    throw error;
  }
}

async function getApiContact(userId: number, id: number): Promise<ApiContact> {
  const contact = await getContact(userId, id);
  if (!contact) throw notFoundError("contact");
  return presentContact(contact);
}

/** Changes only the fields given (the Edit Contact screen's rules); `groupIds` replaces the groups. */
async function updateApiContact(
  userId: number,
  id: number,
  changes: {
    name?: string;
    phone?: string;
    email?: string;
    timeZone?: string | null;
    active?: boolean;
    groupIds?: number[];
  },
): Promise<ApiContact> {
  const current = await getContact(userId, id);
  if (!current) throw notFoundError("contact");
  const { active, ...fields } = changes;
  const input = {
    name: current.name,
    phone: current.phone,
    email: current.email,
    status: active ?? current.status,
    groupIds: current.groups.map((group) => group.id),
    ...fields,
  };
  try {
    const updated = await updateContact(userId, id, input);
    if (!updated) throw notFoundError("contact");
    return presentContact(updated);
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new ApiError("not_found", "No group with one of these ids in your account", { field: "groupIds" });
    throw error;
  }
}

/** Deletes a contact (its messages stay in the history); the answer is the contact as it was. */
async function deleteApiContact(userId: number, id: number): Promise<ApiContact> {
  const contact = await getApiContact(userId, id);
  if (!(await deleteContact(userId, id))) throw notFoundError("contact");
  return contact;
}

/** GET and POST /contacts. The table lists them before the groups and CONTACT_ROUTES after, the order the document has always had. */
export const CONTACT_LIST_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: `${API_BASE}/contacts`,
    operationId: "listContacts",
    tag: "Contacts",
    summary: "List your contacts",
    description: "Name A to Z, a page at a time: pass `nextCursor` back as `cursor` until it is null.",
    auth: true,
    scope: "contacts:manage",
    query: ListContactsQuery,
    success: { status: 200, description: "One page of contacts.", schema: ContactListSchema },
    errors: ["not_found"],
    example: { query: { limit: 10 } },
    handle: async ({ userId, query }) => ({ body: await listApiContacts(userId, query) }),
  }),
  defineRoute({
    method: "POST",
    path: `${API_BASE}/contacts`,
    operationId: "createContact",
    tag: "Contacts",
    summary: "Create a contact",
    description:
      "The same rules as the Create Contact screen: name, phone number and e-mail are required, one contact per phone number. New contacts are active.",
    auth: true,
    scope: "contacts:manage",
    get body() {
      return requests().CreateContactRequest;
    },
    success: { status: 201, description: "Created.", schema: ContactSchema },
    errors: ["not_found", "quota_exceeded"],
    example: { body: { name: "Ada Lovelace", phone: EXAMPLE_PHONE, email: "ada@example.com" } },
    handle: async ({ userId, body }) => ({ status: 201, body: await createApiContact(userId, body) }),
  }),
];

export const CONTACT_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: `${API_BASE}/contacts/{id}`,
    operationId: "getContact",
    tag: "Contacts",
    summary: "Get one contact",
    auth: true,
    scope: "contacts:manage",
    params: ContactIdParams,
    success: { status: 200, description: "The contact.", schema: ContactSchema },
    errors: ["not_found"],
    example: { params: { id: 12 }, readerParams: async (userId) => ({ id: await latestContactId(userId) }) },
    handle: async ({ userId, params }) => ({ body: await getApiContact(userId, params.id) }),
  }),
  defineRoute({
    method: "PATCH",
    path: `${API_BASE}/contacts/{id}`,
    operationId: "updateContact",
    tag: "Contacts",
    summary: "Change a contact",
    description:
      "The Edit Contact screen's rules; only the fields given change. `groupIds` replaces the contact's groups; `active: false` marks it opted out of group sends.",
    auth: true,
    scope: "contacts:manage",
    params: ContactIdParams,
    get body() {
      return requests().UpdateContactRequest;
    },
    success: { status: 200, description: "The contact as it is now.", schema: ContactSchema },
    errors: ["not_found"],
    example: {
      params: { id: 12 },
      body: { email: "ada@example.org" },
      readerParams: async (userId) => ({ id: await latestContactId(userId) }),
    },
    handle: async ({ userId, params, body }) => ({ body: await updateApiContact(userId, params.id, body) }),
  }),
  defineRoute({
    method: "DELETE",
    path: `${API_BASE}/contacts/{id}`,
    operationId: "deleteContact",
    tag: "Contacts",
    summary: "Delete a contact",
    description: "It leaves its groups; the messages sent to it stay in your history.",
    auth: true,
    scope: "contacts:manage",
    params: ContactIdParams,
    success: { status: 200, description: "Deleted: the contact as it was.", schema: ContactSchema },
    errors: ["not_found"],
    example: { params: { id: 12 }, readerParams: async (userId) => ({ id: await latestContactId(userId) }) },
    handle: async ({ userId, params }) => ({ body: await deleteApiContact(userId, params.id) }),
  }),
];
