import type { Page } from "@playwright/test";
import { contactRow, groupRow, seedAddressBook, toast } from "#tests/e2e/contacts.ts";
import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

// With JavaScript the form takes the browser's zone; without it, the profile's (UTC until changed).
test.use({ timezoneId: "America/New_York" });

const YEAR = new Date().getFullYear() + 1;

/** Fills a schedule panel's form and presses Add SMS. */
async function schedule(
  page: Page,
  panel: ReturnType<Page["getByRole"]>,
  fields: { start: string; repeat: string; endDate?: string; message: string },
) {
  await panel.getByLabel("Start Date and Time").fill(fields.start);
  await panel.getByLabel("Repeat").selectOption(fields.repeat);
  if (fields.endDate) await panel.getByLabel("End Date").fill(fields.endDate);
  await panel.getByLabel("Message").fill(fields.message);
  await panel.getByRole("button", { name: "Add SMS" }).click();
  await expect(toast(page, "SMS scheduled successfully!")).toBeAttached();
  // Success closes the panel.
  await expect(page).not.toHaveURL(/panel=/);
  await expect(panel).toHaveCount(0);
}

// Sam and Tia in the group Team, written straight into the database: each test starts there.
const TEAM = {
  groups: ["Team"],
  contacts: [
    { name: "Sam Stone", phone: "+12025550151", email: "sam@example.com", groups: ["Team"] },
    { name: "Tia Tran", phone: "+12025550152", email: "tia@example.com", groups: ["Team"] },
  ],
};

test("a contact's schedule panel: no phone field, the zone, five-minute steps; Cancel closes it", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signedInCustomer(page, "schedpanel");
  await seedAddressBook(account.email, TEAM);
  await page.goto("/sms/accountContacts");
  await contactRow(page, "Sam Stone").getByRole("link", { name: "Schedule SMS" }).click();
  await expect(page).toHaveURL(/panel=schedule&id=\d+/);
  const contactPanel = page.getByRole("region", { name: "Schedule SMS to Sam Stone" });
  await expect(contactPanel).toContainText("To: Sam Stone (+12025550151)");
  await expect(contactPanel.getByLabel("Phone Number")).toHaveCount(0);
  await expect(contactPanel.getByLabel("Time Zone")).toHaveValue(javaScriptEnabled ? "America/New_York" : "UTC");
  await expect(contactPanel.getByLabel("Start Date and Time")).toHaveAttribute("step", "300");
  await contactPanel.getByRole("link", { name: "Cancel" }).click();
  await expect(page).not.toHaveURL(/panel=/);
  await expect(contactPanel).toHaveCount(0);
});

test("schedule from a contact's row (a past time refused first), see it listed, cancel it", async ({ page }) => {
  const account = await signedInCustomer(page, "schedcontact");
  await seedAddressBook(account.email, TEAM);
  // Scheduling asks for enough credits for one send.
  await grantCredits(account.email, 20);
  await page.goto("/sms/accountContacts");
  await contactRow(page, "Sam Stone").getByRole("link", { name: "Schedule SMS" }).click();
  const contactPanel = page.getByRole("region", { name: "Schedule SMS to Sam Stone" });
  // A time in the past is refused next to its field, and the panel stays open.
  await contactPanel.getByLabel("Start Date and Time").fill("2020-01-15T09:00");
  await contactPanel.getByLabel("Message").fill("Your weekly check-in");
  await contactPanel.getByRole("button", { name: "Add SMS" }).click();
  await expect(contactPanel.getByText("The first send must be in the future")).toBeVisible();
  await schedule(page, contactPanel, {
    start: `${YEAR}-01-15T09:00`,
    repeat: "weekly",
    endDate: `${YEAR}-02-28`,
    message: "Your weekly check-in",
  });

  await page.goto("/sms/scheduled");
  const contactSchedule = page.getByTestId("schedule-row").filter({ hasText: "Your weekly check-in" });
  await expect(contactSchedule).toContainText("+12025550151");
  await expect(contactSchedule).toContainText(/Weekly on \w+day at 09:00/);
  await expect(contactSchedule).toContainText("Active");
  await contactSchedule.getByRole("link", { name: "Cancel the scheduled SMS to +12025550151" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(toast(page, "Scheduled SMS cancelled.")).toBeAttached();
  await expect(contactSchedule).toContainText("Cancelled");
  await expect(page.getByRole("link", { name: /^Cancel the scheduled SMS/ })).toHaveCount(0);
});

test("schedule from a group's row: nothing is taken until it goes out; see it listed, cancel it", async ({ page }) => {
  const account = await signedInCustomer(page, "schedgroup");
  await seedAddressBook(account.email, TEAM);
  await grantCredits(account.email, 20);
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Team").getByRole("link", { name: "Schedule SMS" }).click();
  const groupPanel = page.getByRole("region", { name: "Schedule SMS to the group Team" });
  await expect(groupPanel).toContainText("To: every active contact of Team at each send (2 contacts now)");
  await schedule(page, groupPanel, { start: `${YEAR}-03-01T08:30`, repeat: "none", message: "Office closed today" });
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 20 credits");

  await page.goto("/sms/scheduled");
  const groupSchedule = page.getByTestId("schedule-row").filter({ hasText: "Office closed today" });
  await expect(groupSchedule).toContainText("Team");
  await expect(groupSchedule).toContainText(`${YEAR}-03-01 08:30`);
  await expect(groupSchedule).toContainText("Active");
  await groupSchedule.getByRole("link", { name: "Cancel the scheduled SMS to the group Team" }).click();
  await expect(page.getByRole("heading", { name: "Cancel the scheduled SMS to the group Team?" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(toast(page, "Scheduled SMS cancelled.")).toBeAttached();
  await expect(groupSchedule).toContainText("Cancelled");
  await expect(page.getByRole("link", { name: /^Cancel the scheduled SMS/ })).toHaveCount(0);
});

test("deleting a group says it cancels its scheduled SMS, and does", async ({ page, javaScriptEnabled }) => {
  const account = await signedInCustomer(page, "schedgroupdel");
  await grantCredits(account.email, 5);
  await seedAddressBook(account.email, {
    groups: ["Club"],
    contacts: [{ name: "Uma Ueda", phone: "+12025550153", email: "uma@example.com", groups: ["Club"] }],
  });
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Club").getByRole("link", { name: "Schedule SMS" }).click();
  const panel = page.getByRole("region", { name: "Schedule SMS to the group Club" });
  await schedule(page, panel, { start: `${YEAR}-04-01T10:00`, repeat: "monthly", message: "Monthly meeting" });

  await groupRow(page, "Club").getByRole("link", { name: "Delete Group" }).click();
  const confirm = javaScriptEnabled
    ? page.getByRole("dialog")
    : page.getByRole("region", { name: "Delete Group: Club" });
  await expect(confirm).toContainText("Are you sure you want to delete this group?");
  await expect(confirm).toContainText("Its 1 scheduled SMS will be cancelled.");
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Group deleted successfully!")).toBeAttached();

  await page.goto("/sms/scheduled");
  const row = page.getByTestId("schedule-row").filter({ hasText: "Monthly meeting" });
  await expect(row).toContainText("Deleted group");
  await expect(row).toContainText("Cancelled");
});

test("Schedule SMS fills in the number it is given", async ({ page }) => {
  await signedInCustomer(page, "schedprefill");
  await page.goto("/sms/scheduleSms?phoneNumber=%2B12025550154");
  await expect(page.getByLabel("Phone Number")).toHaveValue("+12025550154");
});
