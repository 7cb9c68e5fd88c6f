// Browser-safe: the contacts and groups pages' URLs, their messages, and the lists' URL state.
import { href } from "react-router";
import { z } from "zod";

export const CONTACTS_PATH = href("/sms/accountContacts");
export const GROUPS_PATH = href("/sms/accountGroups");

export const TEXT = {
  contactCreated: "Contact created successfully!",
  contactUpdated: "Contact updated successfully!",
  contactDeleted: "Contact deleted successfully!",
  contactCreateFailed: "Failed to create contact.",
  contactUpdateFailed: "Failed to update contact",
  groupCreated: "Group created successfully!",
  groupUpdated: "Group updated successfully!",
  groupDeleted: "Group deleted successfully!",
  groupCreateFailed: "Failed to create group.",
  groupUpdateFailed: "Failed to update group",
  // The spec's messages when the database or queue fails (not the input).
  contactCreateError: "Error creating contact",
  groupCreateError: "Error creating group",
  contactsFetchError: "Error fetching contacts",
  groupsFetchError: "Error fetching groups",
  contactDeleteError: "Failed to delete contact",
  groupDeleteError: "Failed to delete group",
  confirmDeleteContact: "Are you sure you want to delete this contact?",
  confirmDeleteGroup: "Are you sure you want to delete this group?",
  noGroups: "No groups available",
} as const;

const idParam = z.coerce.number().int().positive();

const LIST_PANELS = ["edit", "send", "schedule", "delete", "sent"] as const;
export type ListPanel = (typeof LIST_PANELS)[number];

/** The contacts and groups lists' URL state: the page, the one open panel and its row, a group filter. */
const ListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  panel: z.enum(LIST_PANELS).optional().catch(undefined),
  id: idParam.optional().catch(undefined),
  group: idParam.optional().catch(undefined),
  send: idParam.optional().catch(undefined),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export function readListQuery(url: string | URL): ListQuery {
  return ListQuerySchema.parse(Object.fromEntries(new URL(url).searchParams));
}

/** A list URL with only what differs from the defaults, e.g. `/sms/accountContacts?page=2&panel=edit&id=4`. */
export function listHref(path: string, query: Partial<ListQuery>): string {
  const params = new URLSearchParams();
  if (query.group) params.set("group", String(query.group));
  if (query.page && query.page > 1) params.set("page", String(query.page));
  if (query.panel && query.id) {
    params.set("panel", query.panel);
    params.set("id", String(query.id));
    if (query.panel === "sent" && query.send) params.set("send", String(query.send));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
