// The spec's messages for failures that are not the user's doing, on the screens, with and without
// JavaScript: the database refuses (a trigger for this test's own account only, so parallel
// journeys are untouched), the message shows where the user is, and what they typed stays.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { getSqlite } from "#app/db/client.server.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";
import { useServerData } from "#tests/e2e/server-data.ts";

test.slow();

/** Makes `event` on `table` fail for this account's rows until the returned function runs. */
function failFor(userId: number, table: string, event: "insert" | "update" | "delete"): () => void {
  const name = `e2e_fail_${event}_${table}_${userId}`;
  const row = event === "insert" ? "new" : "old";
  const sqlite = getSqlite();
  sqlite.exec(
    `create trigger ${name} before ${event} on ${table} when ${row}.user_id = ${userId} ` +
      `begin select raise(abort, 'injected by unexpected-failures.spec'); end`,
  );
  return () => sqlite.exec(`drop trigger if exists ${name}`);
}

async function customer(page: Page) {
  useServerData();
  const account = await signedInCustomer(page, "unexpected");
  return (await findUserByEmail(account.email))!.id;
}

const YEAR = new Date().getFullYear() + 1;

test("Schedule SMS: the spec's message above the form, and the form kept", async ({ page }) => {
  const userId = await customer(page);
  await book({ userId, kind: "grant", amount: 5, key: `e2e-unexpected:${randomUUID()}` });
  const restore = failFor(userId, "schedules", "insert");
  try {
    await page.goto("/sms/scheduleSms");
    await page.getByLabel("Start Date and Time").fill(`${YEAR}-01-15T09:00`);
    await page.getByLabel("Phone Number").fill("+44 7911 123456");
    await page.getByLabel("Message").fill("Quarterly reminder");
    await page.getByRole("button", { name: "Add SMS" }).click();
    await expect(
      page.getByRole("alert").filter({
        hasText: "Failed to schedule SMS, please check to ensure that you have enough credits",
      }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Schedule SMS Message");
    await expect(page.getByLabel("Phone Number")).toHaveValue("+44 7911 123456");
    await expect(page.getByLabel("Message")).toHaveValue("Quarterly reminder");
  } finally {
    restore();
  }
});

test('edit contact: "Failed to update contact" in the panel, what was typed kept', async ({ page }) => {
  const userId = await customer(page);
  const contact = await createContact(userId, {
    name: "Iris Unchanged",
    phone: "+12025550161",
    email: "iris@example.com",
    groupIds: [],
  });
  const restore = failFor(userId, "contacts", "update");
  try {
    await page.goto(`/sms/accountContacts?panel=edit&id=${contact.id}`);
    const panel = page.getByRole("region", { name: "Edit Contact: Iris Unchanged" });
    await panel.getByLabel("Name").fill("Iris Renamed");
    await panel.getByRole("button", { name: "Update Contact" }).click();
    await expect(panel.getByRole("alert").filter({ hasText: "Failed to update contact" })).toBeVisible();
    await expect(panel.getByLabel("Name")).toHaveValue("Iris Renamed");
    await expect(page.getByTestId("contact-row").filter({ hasText: "Iris Unchanged" })).toBeVisible();
  } finally {
    restore();
  }
});

test('delete group: "Failed to delete group" in the confirmation, which stays open', async ({
  page,
  javaScriptEnabled,
}) => {
  const userId = await customer(page);
  const group = await createGroup(userId, { name: "Keepers", description: "Still here" });
  const restore = failFor(userId, "contact_groups", "delete");
  try {
    await page.goto(`/sms/accountGroups?panel=delete&id=${group.id}`);
    const confirmation = javaScriptEnabled
      ? page.getByRole("dialog")
      : page.getByRole("region", { name: "Delete Group: Keepers" });
    await confirmation.getByRole("button", { name: "Delete" }).click();
    await expect(confirmation.getByRole("alert")).toHaveText("Failed to delete group");
    await expect(confirmation.getByRole("link", { name: "Cancel" })).toBeVisible();
    await expect(page.getByTestId("group-row").filter({ hasText: "Keepers" })).toBeVisible();
  } finally {
    restore();
  }
});
