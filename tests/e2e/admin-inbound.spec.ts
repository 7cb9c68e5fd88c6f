// A reply on the shared sender that two accounts wrote to is nobody's: the admin finds it at
// /admin/inbound with both accounts named, assigns it to one, and it is in that account's inbox only.
// A STOP from that phone then counts against both on the admin overview.
import type { Browser, Page } from "@playwright/test";
import { demoAdmin, expect, signedInCustomer, signInByRequest, test } from "#tests/e2e/fixtures.ts";
import { grantCredits } from "#tests/e2e/credits.ts";

async function newPage(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  return context.newPage();
}

test("the admin assigns a reply two accounts could own; it lands in that account's inbox only", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  test.slow();
  const phone = javaScriptEnabled ? "+12025550191" : "+12025550192";
  const first = await signedInCustomer(page, "inbound-a");
  const secondPage = await newPage(browser, baseURL, javaScriptEnabled);
  const second = await signedInCustomer(secondPage, "inbound-b");
  for (const [customerPage, customer] of [
    [page, first],
    [secondPage, second],
  ] as const) {
    await grantCredits(customer.email, 5);
    const sent = await customerPage.request.post("/sms/sendSms", {
      form: { phoneNumber: phone, message: "Can you come on Friday?" },
      headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(sent.status(), "the send redirects").toBe(302);
  }

  const admin = await newPage(browser, baseURL, javaScriptEnabled);
  await signInByRequest(admin, demoAdmin);
  await admin.goto("/admin/simulate");
  await admin.getByLabel("From (the phone)").fill(phone);
  await admin.getByLabel("To (a sender of the gateway)").fill("SMSGateway");
  await admin.getByRole("textbox", { name: "Message" }).fill("Yes, I can come");
  await admin.getByRole("button", { name: "Receive it" }).click();
  await expect(admin.getByTestId("toast")).toBeVisible();

  await admin.getByText("Admin", { exact: true }).click();
  await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Unassigned Inbound SMS" }).click();
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Unassigned inbound SMS");
  const row = admin.getByTestId("unassigned-row").filter({ hasText: phone });
  await expect(row).toContainText("Yes, I can come");
  await expect(row.getByTestId("candidates")).toContainText(first.email);
  await expect(row.getByTestId("candidates")).toContainText(second.email);
  await admin.screenshot({ path: testInfo.outputPath("admin-inbound-wide.png"), fullPage: true });
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByLabel("Assign to (account e-mail)")).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath("admin-inbound-narrow.png"), fullPage: true });

  // A mistake first, answered beside the field; nothing assigned.
  await row.getByLabel("Assign to (account e-mail)").fill("nobody@example.com");
  await row.getByRole("button", { name: "Assign" }).click();
  await expect(row.getByText("No account with the e-mail nobody@example.com")).toBeVisible();
  await row.getByLabel("Assign to (account e-mail)").fill(second.email);
  await row.getByRole("button", { name: "Assign" }).click();
  await expect(admin.getByTestId("toast").filter({ hasText: `Message assigned to ${second.email}` })).toBeVisible();
  await expect(admin.getByTestId("unassigned-row").filter({ hasText: phone })).toHaveCount(0);

  await secondPage.goto("/sms/inbox");
  await expect(secondPage.getByTestId("conversation").filter({ hasText: phone })).toContainText("Yes, I can come");
  await page.goto("/sms/inbox");
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  await expect(page.getByTestId("conversation")).toHaveCount(0);

  // The phone answers STOP: both accounts wrote to it, so both show on the overview, each at 100 %.
  await admin.goto("/admin/simulate");
  await admin.getByLabel("From (the phone)").fill(phone);
  await admin.getByLabel("To (a sender of the gateway)").fill("SMSGateway");
  await admin.getByRole("textbox", { name: "Message" }).fill("STOP");
  await admin.getByRole("button", { name: "Receive it" }).click();
  await expect(admin.getByTestId("toast").filter({ hasText: "received" })).toBeVisible();
  const stopped = admin.getByTestId("opt-out-row").filter({ hasText: second.email });
  await expect(async () => {
    await admin.goto("/admin");
    await expect(stopped).toContainText("100.0 %", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(admin.getByTestId("opt-out-row").filter({ hasText: first.email })).toContainText("100.0 %");
  await admin
    .locator("section")
    .filter({ has: admin.getByRole("heading", { name: "Accounts whose recipients answered STOP" }) })
    .screenshot({ path: testInfo.outputPath("admin-overview-stop-narrow.png") });
});
