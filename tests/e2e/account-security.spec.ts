// Issue 17's security journeys: two-factor sign-in with a code and a recovery code, ending another
// browser's session, and a read-only API key refused when it sends; issue 28's cap on API keys.
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { insertApiKey } from "#app/modules/api-keys/keys.server.ts";
import { serverUser } from "#tests/e2e/credits.ts";
import { expect, login, signedInCustomer, test, type Account } from "#tests/e2e/fixtures.ts";

async function logout(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function secondStep(page: Page, account: Account, code: string) {
  await login(page, account, /\/login\/two-factor/);
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test("two-factor: enrol with the manual key, sign in with a code, then a recovery code once", async ({ page }) => {
  const account = await signedInCustomer(page, "totp");
  await page.goto("/sms/sendSms");
  await page.getByText("Control Panel").click();
  await page.getByRole("link", { name: "Security" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
  await page.getByRole("button", { name: "Set up two-factor" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = (await page.getByTestId("manual-key").textContent())!.replace(/\s/g, "");
  const totp = new TOTP({ secret: Secret.fromBase32(key) });

  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await page.getByLabel("Code from the app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.nth(0).textContent())!;
  await page.goto("/account/two-factor");
  await expect(page.getByTestId("recovery-codes-left")).toHaveText("10");

  await logout(page);
  // The enrolment used this 30-second step's code; the next step's is accepted (one step of drift).
  await secondStep(page, account, totp.generate({ timestamp: Date.now() + 30_000 }));
  await expect(page).toHaveURL(/\/sms\/sendSms$/);

  await logout(page);
  await secondStep(page, account, recoveryCode);
  await expect(page).toHaveURL(/\/sms\/sendSms$/);

  await logout(page);
  await secondStep(page, account, recoveryCode);
  await expect(page.getByText("That recovery code has been used already.")).toBeVisible();
  await expect(page).toHaveURL(/\/login\/two-factor/);
});

test("sessions: end another browser's session and that browser is signed out", async ({ page, browser }) => {
  const account = await signedInCustomer(page, "sessions");
  const otherContext = await browser.newContext({ userAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/128.0" });
  const other = await otherContext.newPage();
  try {
    await login(other, account);
    await page.goto("/account/sessions");
    await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
    await expect(page.getByTestId("session")).toHaveCount(2);
    await expect(page.getByText("This browser")).toBeVisible();
    await page.getByRole("button", { name: /^Sign out Firefox on Windows/ }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "That session is signed out." })).toBeVisible();
    await expect(page.getByTestId("session")).toHaveCount(1);

    await other.goto("/sms/sendSms");
    await expect(other).toHaveURL(/\/login\?redirectTo=/);
  } finally {
    await otherContext.close();
  }
});

test("API keys: a read-only key reads the balance and gets 403 insufficient_scope when sending", async ({ page }) => {
  await signedInCustomer(page, "scopes");
  await page.goto("/sms/apiToken");
  await page.getByLabel("Name").fill("Reports");
  await page.getByLabel("Send messages").uncheck();
  await page.getByLabel("Manage contacts and groups").uncheck();
  await page.getByRole("button", { name: "Create API Key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Your API key is ready." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
  await page.getByRole("link", { name: "Show Key" }).click();
  await expect(page.getByTestId("api-key")).toHaveText(/^smsgw_live_[0-9A-Za-z]{42}$/);
  const key = (await page.getByTestId("api-key").textContent())!;

  const headers = { Authorization: `Bearer ${key}` };
  expect((await page.request.get("/api/v1/balance", { headers })).status()).toBe(200);
  const send = await page.request.post("/api/v1/messages", { headers, data: { to: "+12025550123", body: "hi" } });
  expect(send.status()).toBe(403);
  expect((await send.json()).error.code).toBe("insufficient_scope");
});

test("API keys: past the account's 20 keys the form says so above itself and makes no key", async ({ page }) => {
  const account = await signedInCustomer(page, "keyquota");
  const user = await serverUser(account.email);
  for (let i = 1; i <= 20; i++) await insertApiKey(user.id, { name: `Key ${i}`, scopes: ["messages:read"] });
  await page.goto("/sms/apiToken");
  await page.getByLabel("Name").fill("One too many");
  await page.getByRole("button", { name: "Create API Key" }).click();
  await expect(
    page.getByText(
      "Your account has reached its limit of 20 API keys. Revoke a key you no longer use before creating another.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Key 20" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "One too many" })).toHaveCount(0);
});
