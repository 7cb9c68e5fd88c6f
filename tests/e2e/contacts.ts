// Journeys through the contact and group screens, shared by the contacts and scheduling specs.
import type { Page } from "@playwright/test";
import { createContact as insertContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup as insertGroup } from "#app/modules/contacts/groups.server.ts";
import { serverUser } from "#tests/e2e/credits.ts";
import { expect } from "#tests/e2e/fixtures.ts";

export async function createGroup(page: Page, name: string, description: string) {
  await page.goto("/sms/createGroup");
  await expect(page.getByRole("heading", { level: 1, name: "Create Group" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Message History" }).last()).toBeVisible();
  await page.getByLabel("Group Name").fill(name);
  await page.getByLabel("Group Description").fill(description);
  await page.getByRole("button", { name: "Create Group" }).click();
  await expect(page).toHaveURL(/\/sms\/accountGroups$/);
  await expect(toast(page, "Group created successfully!")).toBeAttached();
  await expect(page.getByTestId("group-row").filter({ hasText: name })).toBeVisible();
}

export async function createContact(
  page: Page,
  contact: { name: string; phone: string; email: string; groups: string[] },
) {
  await page.goto("/sms/createContact");
  await page.getByLabel("Name").fill(contact.name);
  await page.getByLabel("Phone Number").fill(contact.phone);
  await page.getByLabel("Email").fill(contact.email);
  for (const group of contact.groups) await page.getByLabel(group, { exact: true }).check();
  await page.getByRole("button", { name: "Create Contact" }).click();
}

// Earlier toasts may still be on screen: find the one with this text.
export const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text });
export const contactRow = (page: Page, name: string) => page.getByTestId("contact-row").filter({ hasText: name });
export const groupRow = (page: Page, name: string) => page.getByTestId("group-row").filter({ hasText: name });

export type SeedContact = { name: string; /** E.164 */ phone: string; email: string; groups: string[] };

/** Groups and contacts written straight into the server's database, for tests that start from them. */
export async function seedAddressBook(
  email: string,
  book: { groups: string[]; contacts: SeedContact[] },
): Promise<void> {
  const user = await serverUser(email);
  const groupIds = new Map<string, number>();
  for (const name of book.groups) {
    groupIds.set(name, (await insertGroup(user.id, { name, description: `The ${name} group` })).id);
  }
  for (const contact of book.contacts) {
    await insertContact(user.id, {
      name: contact.name,
      phone: contact.phone,
      email: contact.email,
      groupIds: contact.groups.map((g) => groupIds.get(g)!),
    });
  }
}
