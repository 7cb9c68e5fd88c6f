// Accounts people manage themselves, on the e2e server: no SMTP_URL, so the mail is kept and an
// admin reads the links at /admin/mail (test mode). Each journey runs with JavaScript on and off.
import type { Browser, Page } from "@playwright/test";
import {
  demoAdmin,
  expect,
  login,
  newAccount,
  register,
  signInByRequest,
  signedInCustomer,
  test,
} from "#tests/e2e/fixtures.ts";

test.describe.configure({ timeout: 240_000 });

const javaScriptEnabled = () => test.info().project.name === "js";

async function newBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: javaScriptEnabled(),
  });
  return context.newPage();
}

/** The path of the link in the newest mail to `to` whose subject matches, as an admin sees it at /admin/mail. */
async function linkFromAdminMail(admin: Page, to: string, subject: string): Promise<string> {
  await admin.goto("/admin/mail");
  await expect(admin.getByRole("heading", { level: 1, name: "Mail" })).toBeVisible();
  const row = admin.getByRole("row").filter({ hasText: to }).filter({ hasText: subject }).first();
  await row.getByRole("link", { name: subject }).click();
  const text = admin.getByTestId("mail-text");
  await expect(text).toBeVisible();
  const href = await text.getByRole("link").first().getAttribute("href");
  expect(href).toMatch(/^\/(reset-password|verify-email|account\/confirm-email)\/[A-Za-z0-9_-]{43}$/);
  return href!;
}

test("forgot password: the link from /admin/mail sets a new one, once, and signs the other browser out", async ({
  page,
  browser,
}) => {
  const account = newAccount("reset");
  await register(page, account);
  const other = await newBrowser(browser);
  await signInByRequest(other, account);
  await other.goto("/sms/sendSms");
  await expect(other.getByRole("heading", { level: 1, name: "Send SMS" })).toBeVisible();

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Forgot Password" })).toBeVisible();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "If an account uses that address" })).toBeVisible();

  const admin = await newBrowser(browser);
  await signInByRequest(admin, demoAdmin);
  const link = await linkFromAdminMail(admin, account.email, "Reset your SMS Gateway password");

  await page.goto(link);
  // Registered without a mail server, the account was never verified: this link is the first proof.
  await expect(page.getByText("This link is the first proof that this e-mail address is yours")).toBeVisible();
  await page.getByLabel("New Password", { exact: true }).fill("a-new-secret-42");
  await page.getByLabel("Confirm New Password").fill("a-different-one");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await page.getByLabel("New Password", { exact: true }).fill("a-new-secret-42");
  await page.getByLabel("Confirm New Password").fill("a-new-secret-42");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Your password has been changed." })).toBeVisible();
  // Used, the link is gone from the outbox and the admins' view.
  await admin.reload();
  await expect(admin.getByTestId("mail-text")).toContainText("[link removed]");

  // The other browser was signed out.
  await other.goto("/sms/sendSms");
  await expect(other).toHaveURL(/\/login\?redirectTo=/);

  await login(page, { ...account, password: "a-new-secret-42" });
  // The link worked once.
  const again = await other.goto(link);
  expect(again?.status()).toBe(410);
  await expect(other.getByText("This reset link has already been used.")).toBeVisible();
});

test("settings: name, zone and e-mail; the new address takes effect when its link is opened", async ({
  page,
  browser,
}) => {
  const account = await signedInCustomer(page, "settings");
  await page.goto("/sms/sendSms");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();

  await page.getByLabel("Full Name").fill("Renamed Person");
  await page.getByLabel("Time Zone").selectOption("Asia/Tokyo");
  await page.getByLabel("Low-balance alert (credits)").fill("0");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Enter at least 1 credit, or leave it empty for no alert")).toBeVisible();
  await page.getByLabel("Low-balance alert (credits)").fill("25");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Settings saved." })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText("Welcome, Renamed Person");
  await expect(page.getByLabel("Time Zone")).toHaveValue("Asia/Tokyo");

  const newEmail = newAccount("moved").email;
  await page.getByLabel("New E-mail").fill(newEmail);
  await page.getByLabel("Current Password").fill("not-my-password");
  await page.getByRole("button", { name: "Change E-mail" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible();
  await page.getByLabel("New E-mail").fill(newEmail);
  await page.getByLabel("Current Password").fill(account.password);
  await page.getByRole("button", { name: "Change E-mail" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: `We have e-mailed a link to ${newEmail}` })).toBeVisible();
  await expect(page.getByText(`Waiting for you to open the link we sent to ${newEmail}`)).toBeVisible();

  const admin = await newBrowser(browser);
  await signInByRequest(admin, demoAdmin);
  // The old address is told.
  await admin.goto("/admin/mail");
  await expect(
    admin.getByRole("row").filter({ hasText: account.email }).filter({ hasText: "is being changed" }),
  ).toBeVisible();
  const link = await linkFromAdminMail(admin, newEmail, "Confirm your new e-mail address");

  await page.goto(link);
  await expect(page).toHaveURL(/\/account\/settings$/);
  await expect(page.getByTestId("toast").filter({ hasText: `Your e-mail address is now ${newEmail}.` })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await login(page, { ...account, email: newEmail });
});

test("password change: the current password first, then every other browser is signed out", async ({
  page,
  browser,
}) => {
  const account = await signedInCustomer(page, "passwd");
  const other = await newBrowser(browser);
  await signInByRequest(other, account);

  await page.goto("/account/password");
  await expect(page.getByRole("heading", { level: 1, name: "Change Password" })).toBeVisible();
  await page.getByLabel("Current Password").fill("wrong-password");
  await page.getByLabel("New Password", { exact: true }).fill("changed-secret-42");
  await page.getByLabel("Confirm New Password").fill("changed-secret-42");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible();
  await other.goto("/sms/sendSms");
  await expect(other.getByRole("heading", { level: 1, name: "Send SMS" })).toBeVisible();

  await page.getByLabel("Current Password").fill(account.password);
  await page.getByLabel("New Password", { exact: true }).fill("changed-secret-42");
  await page.getByLabel("Confirm New Password").fill("changed-secret-42");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Password changed." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();

  await other.goto("/sms/sendSms");
  await expect(other).toHaveURL(/\/login\?redirectTo=/);
});
