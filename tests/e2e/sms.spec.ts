import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

// The simulator holds this number in the queue for 10 x SIMULATOR_DLR_MS (15 s here, see
// playwright.config.ts), then delivers it 1.5 s later.
const SLOW_NUMBER = "(202) 555-0196";
const TWO_SEGMENTS = `${"Your appointment is confirmed. ".repeat(5)}See you soon!!`;

test("send an SMS and follow it from queued to delivered in the history", async ({ page, javaScriptEnabled }) => {
  const account = await signUpAndLogin(page, "sms");
  await grantCredits(account.email, 10);
  await page.reload();
  const balance = page.getByTestId("balance");
  await expect(balance).toHaveText("Account balance: 10 credits");

  await expect(page.getByRole("heading", { level: 1, name: "Send SMS" })).toBeVisible();
  await expect(page.getByRole("link", { name: "API Documentation" }).first()).toBeVisible();
  await expect(page.getByText("A single SMS has a maximum of 160 characters.")).toBeVisible();
  await expect(page.getByRole("list").filter({ hasText: "Press Send SMS." }).getByRole("listitem")).toHaveCount(5);

  await page.getByLabel("Phone Number").fill(SLOW_NUMBER);
  await page.getByLabel("Message").fill(TWO_SEGMENTS);
  const counter = page.getByTestId("segment-counter");
  if (!javaScriptEnabled) {
    // Without JavaScript the server works the counter out.
    await page.getByRole("button", { name: "Check cost" }).click();
    await expect(page.getByLabel("Phone Number")).toHaveValue(SLOW_NUMBER);
  }
  await expect(counter).toContainText(`${TWO_SEGMENTS.length} characters`);
  await expect(counter).toContainText("GSM-7");
  await expect(counter).toContainText("2 segments · Cost: 2 credits");

  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByTestId("toast")).toContainText("SMS sent successfully!");
  await expect(page.getByLabel("Message")).toHaveValue("");
  await expect(page.getByLabel("Phone Number")).toHaveValue("");
  await expect(balance).toHaveText("Account balance: 8 credits");

  await page.getByRole("link", { name: "Message History" }).first().click();
  await expect(page).toHaveURL(/\/sms\/messageHistory$/);
  await expect(page.getByText("Message history is limited to 10,000 rows.")).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /Created At \(UTC\)/ })).toBeVisible();
  const row = page.getByTestId("message-row").filter({ hasText: "+12025550196" });
  await expect(row).toContainText("Queued");
  await expect(row).toContainText(TWO_SEGMENTS);
  await expect(row).toContainText("2 segments");
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText("Delivered", { timeout: 500 });
  }).toPass({ timeout: 60_000 });
  await expect(balance).toHaveText("Account balance: 8 credits");
});

test("not enough credits: the spec's message, nothing queued, nothing debited", async ({ page }) => {
  const account = await signUpAndLogin(page, "poor");
  await grantCredits(account.email, 1);
  await page.reload();
  await page.getByLabel("Phone Number").fill("+44 7911 123456");
  await page.getByLabel("Message").fill(TWO_SEGMENTS);
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Failed to send SMS" })).toContainText(
    "Failed to send SMS, please check to ensure that you have enough credits",
  );
  await expect(page.getByLabel("Message")).toHaveValue(TWO_SEGMENTS);
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 1 credits");
  await page.goto("/sms/messageHistory");
  await expect(page.getByText("You have not sent any messages yet.")).toBeVisible();
});

test("a bad number is an error that names it, next to the field", async ({ page }) => {
  await signUpAndLogin(page, "badnum");
  await page.goto("/sms/documentation");
  await expect(page.getByRole("heading", { level: 1, name: "Documentation" })).toBeVisible();
  await page.getByLabel("Phone Number").fill("555-CALL-NOW");
  await page.getByLabel("Message").fill("hello");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByText('"555-CALL-NOW" is not a valid phone number')).toBeVisible();
  await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
});
