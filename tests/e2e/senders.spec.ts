// Senders and opt-outs through the screens, with and without JavaScript: a customer asks for a sender
// ID and sees the admin's decision; the admin adds a number for them; the customer keeps an opt-out
// list that the send form honours. Each form is first sent with a mistake, answered beside its field.
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { demoAdmin, expect, signedInCustomer, signInByRequest, test } from "#tests/e2e/fixtures.ts";
import { grantCredits } from "#tests/e2e/credits.ts";

async function asAdmin(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  await signInByRequest(page, demoAdmin);
  return page;
}

test("a customer requests a sender ID, the admin rejects it with a reason, then assigns a number", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.slow();
  const customer = await signedInCustomer(page, "senders");
  const name = `Shop${randomUUID().slice(0, 5)}`;

  await page.goto("/sms/senders");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Senders");
  await expect(page.getByText("your messages go from the gateway's shared sender")).toBeVisible();
  await page.getByLabel("Sender ID").fill("Sale 50%!");
  await page.getByRole("button", { name: "Request" }).click();
  await expect(page.getByText(/An alphanumeric ID has 1 to 11/)).toBeVisible();
  await page.getByLabel("Sender ID").fill(name);
  await page.getByRole("button", { name: "Request" }).click();
  await expect(page.getByTestId("sender-row").filter({ hasText: name })).toContainText("Waiting for approval");

  const admin = await asAdmin(browser, baseURL, javaScriptEnabled);
  await admin.goto("/admin/senders");
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Senders");
  const request = admin.getByTestId("admin-sender-row").filter({ hasText: name });
  await request.getByRole("button", { name: "Reject" }).click();
  await expect(admin.getByText("Say why, so the customer knows what to change")).toBeVisible();
  await admin
    .getByTestId("admin-sender-row")
    .filter({ hasText: name })
    .getByLabel("Reason for rejecting")
    .fill("Use your registered company name");
  await admin.getByTestId("admin-sender-row").filter({ hasText: name }).getByRole("button", { name: "Reject" }).click();
  await expect(admin.getByTestId("admin-sender-row").filter({ hasText: name })).toContainText("rejected");

  // A number for the customer: a local number first, which is not E.164.
  const digits = String(Math.floor(Math.random() * 900) + 100);
  await admin.getByLabel("Kind").selectOption("long_number");
  await admin.getByLabel("Address").fill(`07700900${digits}`);
  await admin.getByLabel("TON").fill("1");
  await admin.getByLabel("NPI").fill("1");
  await admin.getByLabel("Assigned to (account e-mail)").fill(customer.email);
  await admin.getByRole("button", { name: "Add sender" }).click();
  await expect(admin.getByText(/A long number is in international format/)).toBeVisible();
  await admin.getByLabel("Address").fill(`+447700900${digits}`);
  await admin.getByRole("button", { name: "Add sender" }).click();
  await expect(admin.getByTestId("admin-sender-row").filter({ hasText: `+447700900${digits}` })).toContainText(
    customer.email,
  );
  await admin.context().close();

  await page.goto("/sms/senders");
  await expect(page.getByTestId("sender-row").filter({ hasText: name })).toContainText(
    "Reason: Use your registered company name",
  );
  await expect(page.getByTestId("sender-row").filter({ hasText: `+447700900${digits}` })).toContainText("Default");
});

test("a customer keeps an opt-out list, and the send form refuses a number on it", async ({ page }) => {
  test.slow();
  const customer = await signedInCustomer(page, "optouts");
  await grantCredits(customer.email, 5);
  const phone = `+1202555${String(Math.floor(Math.random() * 9000) + 1000)}`;

  await page.goto("/sms/optOuts");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Opt-outs");
  await page.getByLabel("Phone Number").fill("12");
  await page.getByRole("button", { name: "Add to opt-outs" }).click();
  await expect(page.getByText('"12" is not a valid phone number')).toBeVisible();
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByRole("button", { name: "Add to opt-outs" }).click();
  await expect(page.getByTestId("opt-out-row").filter({ hasText: phone })).toContainText("Added by hand");

  await page.goto("/sms/sendSms");
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByLabel("Message").fill("Last chance: 20% off");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByText(`${phone} has opted out of your messages`)).toBeVisible();
  await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");

  // On a phone the list scrolls inside its table: the page itself is no wider than the screen.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/sms/optOuts");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page
    .getByTestId("opt-out-row")
    .filter({ hasText: phone })
    .getByRole("button", { name: `Remove ${phone}` })
    .click();
  await expect(page.getByTestId("opt-out-row").filter({ hasText: phone })).toHaveCount(0);
  await expect(page.getByText("No opt-outs yet.")).toBeVisible();
});
