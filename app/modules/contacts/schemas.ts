// Browser-safe: the contact and group forms validate with these in the browser and in the actions.
import { z } from "zod";
import { emailField } from "#app/modules/auth/schemas.ts";
import { type CountryCode, phoneField } from "#app/modules/messaging/phone.ts";
import { fromField, messageBodyField } from "#app/modules/messaging/schemas.ts";
import { optionalTimeZoneField } from "#app/modules/quiet-hours/time-zone-field.ts";

export const CONTACTS_PAGE_SIZE = 10;
export const GROUPS_PAGE_SIZE = 10;
const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be ${max} characters or fewer`);

export const contactNameField = requiredText("Name", NAME_MAX);
export const groupNameField = requiredText("Group name", NAME_MAX);

const idField = z.coerce.number().int().positive();
// Checkboxes: none ticked posts nothing, one ticked posts a single value.
const groupIdsField = z.array(idField).default([]);

export function createContactSchema(defaultCountry: CountryCode) {
  return z.object({
    name: contactNameField,
    phoneNumber: phoneField(defaultCountry),
    email: emailField,
    timeZone: optionalTimeZoneField,
    groupIds: groupIdsField,
  });
}

/** The edit panel also sets the status: an inactive contact opted out and is skipped by group sends. */
export function createEditContactSchema(defaultCountry: CountryCode) {
  return createContactSchema(defaultCountry).extend({
    intent: z.literal("update"),
    id: idField,
    active: z.boolean().default(false),
  });
}

export const GroupSchema = z.object({
  groupName: groupNameField,
  description: requiredText("Group description", DESCRIPTION_MAX),
});

export const EditGroupSchema = GroupSchema.extend({ intent: z.literal("update"), id: idField });

export const DeleteSchema = z.object({ intent: z.literal("delete"), id: idField });

export const SEND_PANEL_INTENT = { send: "send", check: "check" } as const;

/** A message to one contact or to a whole group; `requestKey` makes a double submit start one group send. */
export function createPanelSendSchema(maxSegments: number) {
  return z.object({
    // The submit button's value, which the browser-side check may not see.
    intent: z.literal(SEND_PANEL_INTENT.send).default(SEND_PANEL_INTENT.send),
    id: idField,
    message: messageBodyField(maxSegments),
    from: fromField,
    requestKey: z.string().max(64).optional(),
    // A templated group send's confirmed total (the confirm step's key).
    quoted: z.string().max(200).optional(),
  });
}
