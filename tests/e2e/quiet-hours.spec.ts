// Quiet hours: set on the Settings screen (a mistake first), then a group send to a member whose
// local time is inside them shows "Deferred until ..." in its report and in the message history.
import { createContact as insertContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup as insertGroup } from "#app/modules/contacts/groups.server.ts";
import { groupRow } from "#tests/e2e/contacts.ts";
import { grantCredits, serverUser } from "#tests/e2e/credits.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

const hh = (hour: number) => `${String((hour + 24) % 24).padStart(2, "0")}:00`;

test("set quiet hours, then a group send to a member inside them is deferred until they end", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signedInCustomer(page, "quiethours");
  const user = await serverUser(account.email);
  const group = await insertGroup(user.id, { name: "Night owls", description: "Late readers" });
  // The member lives in UTC; the window runs from an hour ago to two hours ahead there, so it is quiet now.
  await insertContact(user.id, {
    name: "Olga Owl",
    phone: "+12025550177",
    email: "olga@example.com",
    timeZone: "UTC",
    groupIds: [group.id],
  });
  await grantCredits(account.email, 5);
  const hour = new Date().getUTCHours();

  await page.goto("/account/settings");
  const card = page.locator("form#quiet-hours");
  await card.getByLabel("Quiet hours on").check();
  await card.getByLabel("Start (HH:MM, 24-hour)").fill("25:00");
  await card.getByLabel("End (HH:MM, 24-hour)").fill(hh(hour + 2));
  await card.getByRole("button", { name: "Save Quiet Hours" }).click();
  await expect(card.getByText("Enter the start time as HH:MM (24-hour), e.g. 21:00")).toBeVisible();
  await card.getByLabel("Start (HH:MM, 24-hour)").fill(hh(hour - 1));
  await card.getByRole("button", { name: "Save Quiet Hours" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Quiet hours on" })).toBeAttached();
  await expect(card.getByLabel("Start (HH:MM, 24-hour)")).toHaveValue(hh(hour - 1));
  await expect(card.getByLabel("Quiet hours on")).toBeChecked();

  await page.goto("/sms/accountGroups");
  await groupRow(page, "Night owls").getByRole("link", { name: "Send SMS" }).click();
  const panel = page.getByRole("region", { name: "Send SMS to the group Night owls" });
  await panel.getByLabel("Message").fill("Good morning!");
  await panel.getByRole("button", { name: "Send SMS" }).click();
  const result = page.getByTestId("group-send-result");
  await expect(async () => {
    const refresh = result.getByRole("link", { name: "Refresh" });
    if (!javaScriptEnabled && (await refresh.isVisible())) await refresh.click();
    await expect(result).toContainText("Done.", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(result).toContainText("Queued 1 message (1 credit).");
  await expect(result.getByTestId("deferred-until")).toContainText(`Deferred until`);
  await expect(result.getByTestId("deferred-until")).toContainText(`${hh(hour + 2)} (UTC)`);

  await result.getByRole("link", { name: "Message History" }).click();
  const row = page.getByTestId("message-row").filter({ hasText: "Good morning!" });
  await expect(row).toContainText("Queued");
  await expect(row.getByTestId("deferred-until")).toContainText(`${hh(hour + 2)} (UTC)`);
});
