import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

test("follow a message's journey from the history: accepted, charged, queued, submitted, receipted", async ({
  page,
}) => {
  const account = await signUpAndLogin(page, "journey");
  await grantCredits(account.email, 3);
  await page.reload();
  await page.getByLabel("Phone Number").fill("+1 202 555 0177");
  await page.getByLabel("Message").fill("Your table is ready");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByTestId("toast")).toContainText("SMS sent successfully!");

  await page.getByRole("link", { name: "Message History" }).first().click();
  const row = page.getByTestId("message-row").filter({ hasText: "+12025550177" });
  await row.getByRole("link", { name: /its journey/ }).click();
  await expect(page).toHaveURL(/\/sms\/messages\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Message #\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page.getByText("Your table is ready")).toBeVisible();
  await expect(page.getByText("Oldest first, times in UTC")).toBeVisible();

  const events = page.getByTestId("journey-event");
  await expect(async () => {
    await page.reload();
    await expect(events.filter({ hasText: "Delivery receipt" })).toContainText("stat DELIVRD", { timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await expect(events.nth(0)).toContainText("Accepted");
  await expect(events.nth(0)).toContainText("Sent from the website");
  await expect(events.nth(1)).toContainText("Charged");
  await expect(events.nth(1)).toContainText("1 credit");
  await expect(events.nth(2)).toContainText("Queued");
  await expect(events.nth(3)).toContainText("Accepted by the SMSC");
  await expect(events.nth(3)).toContainText("Upstream default");
  await expect(events.nth(3)).toContainText("command status 0x00000000");
  await expect(events.nth(3)).toContainText("SMSC message id");

  // Another account finds nothing at this address.
  const address = page.url();
  await page.context().clearCookies();
  await signUpAndLogin(page, "journey-stranger");
  const response = await page.goto(address);
  expect(response?.status()).toBe(404);
});
