import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

// With JavaScript the form takes the browser's zone; without it, the profile's (UTC until changed).
test.use({ timezoneId: "America/New_York" });

const YEAR = new Date().getFullYear() + 1;

test("schedule a weekly SMS, see it in the scheduled list, cancel it", async ({ page, javaScriptEnabled }) => {
  const account = await signUpAndLogin(page, "sched");
  await grantCredits(account.email, 10);
  await page.getByRole("navigation", { name: "Main" }).getByText("Control Panel").click();
  await page.getByRole("link", { name: "Schedule SMS", exact: true }).click();
  await expect(page).toHaveURL(/\/sms\/scheduleSms$/);

  await expect(page.getByRole("heading", { level: 1, name: "Schedule SMS Message" })).toBeVisible();
  await expect(page.getByText("SMS Gateway", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("A single SMS has a maximum of 160 characters.")).toBeVisible();
  await expect(page.getByRole("list").filter({ hasText: "then press Add SMS." }).getByRole("listitem")).toHaveCount(5);
  await expect(page.getByLabel("Start Date and Time")).toHaveAttribute("step", "300");
  await expect(page.getByLabel("Message")).toHaveAttribute("rows", "10");
  await expect(page.getByLabel("Repeat")).toHaveValue("none");
  const zone = javaScriptEnabled ? "America/New_York" : "UTC";
  await expect(page.getByLabel("Time Zone")).toHaveValue(zone);
  // The end date follows Repeat with JavaScript; without it, it is always there.
  await expect(page.getByLabel("End Date")).toHaveCount(javaScriptEnabled ? 0 : 1);

  await page.getByLabel("Start Date and Time").fill(`${YEAR}-01-15T09:00`);
  await page.getByLabel("Repeat").selectOption("weekly");
  await expect(page.getByLabel("End Date")).toBeVisible();
  await page.getByLabel("End Date").fill(`${YEAR}-02-28`);
  await page.getByLabel("Phone Number").fill("+44 7911 123456");
  await page.getByLabel("Message").fill("Weekly stand-up at 9");
  if (javaScriptEnabled) await expect(page.getByTestId("segment-counter")).toContainText("1 segment · Cost: 1 credit");
  await page.getByRole("button", { name: "Add SMS" }).click();

  await expect(page.getByTestId("toast").filter({ hasText: "SMS scheduled successfully!" })).toBeVisible();
  await expect(page.getByLabel("Phone Number")).toHaveValue("");
  await expect(page.getByLabel("Message")).toHaveValue("");
  // Nothing is taken until a message goes out.
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 10 credits");

  await page.getByRole("link", { name: "Scheduled SMS" }).first().click();
  await expect(page).toHaveURL(/\/sms\/scheduled$/);
  await expect(page.getByRole("columnheader", { name: `Next Run (${zone})` })).toBeVisible();
  const row = page.getByTestId("schedule-row").filter({ hasText: "Weekly stand-up at 9" });
  await expect(row).toContainText(`${YEAR}-01-15 09:00`);
  await expect(row).toContainText(/Weekly on \w+day at 09:00/);
  await expect(row).toContainText(`${YEAR}-02-28`);
  await expect(row).toContainText("+447911123456");
  await expect(row).toContainText("Active");

  await row.getByRole("link", { name: "Cancel the scheduled SMS to +447911123456" }).click();
  await expect(page.getByRole("heading", { name: "Cancel the scheduled SMS to +447911123456?" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Scheduled SMS cancelled." })).toBeVisible();
  await expect(row).toContainText("Cancelled");
  await expect(row.getByRole("link", { name: /Cancel/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /Cancel the scheduled SMS/ })).toHaveCount(0);
});

test("bad input gives field errors next to the fields and schedules nothing", async ({ page }) => {
  const account = await signUpAndLogin(page, "schedbad");
  await grantCredits(account.email, 10);
  await page.goto("/sms/scheduleSms");
  await page.getByLabel("Start Date and Time").fill("2020-01-15T09:00");
  await page.getByLabel("Repeat").selectOption("daily");
  await page.getByLabel("End Date").fill("2019-12-31");
  await page.getByLabel("Phone Number").fill("555-CALL-NOW");
  await page.getByLabel("Message").fill("Hello");
  await page.getByRole("button", { name: "Add SMS" }).click();

  await expect(page.getByText("The first send must be in the future")).toBeVisible();
  await expect(page.getByText("End Date must be on or after the first send")).toBeVisible();
  await expect(page.getByText('"555-CALL-NOW" is not a valid phone number')).toBeVisible();
  await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Message")).toHaveValue("Hello");

  await page.goto("/sms/scheduled");
  await expect(page.getByText("You have no scheduled messages.")).toBeVisible();
});

test("without credits for one message: the spec's failure, the form kept", async ({ page }) => {
  await signUpAndLogin(page, "schedpoor");
  await page.goto("/sms/scheduleSms");
  await page.getByLabel("Start Date and Time").fill(`${YEAR}-03-01T08:30`);
  await page.getByLabel("Phone Number").fill("+1 202 555 0123");
  await page.getByLabel("Message").fill("Reminder");
  await page.getByRole("button", { name: "Add SMS" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Failed to schedule SMS" })).toContainText(
    "Failed to schedule SMS, please check to ensure that you have enough credits",
  );
  await expect(page.getByLabel("Message")).toHaveValue("Reminder");
  await expect(page.getByLabel("Start Date and Time")).toHaveValue(`${YEAR}-03-01T08:30`);
});
