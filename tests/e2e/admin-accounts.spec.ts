// The admin's account screen, with and without JavaScript: disabling an account (after a
// confirmation) signs its owner out and keeps them out with a clear message; enabling lets them in.
import { demoAdmin, expect, login, signedInCustomer, signInByRequest, test } from "#tests/e2e/fixtures.ts";

test("an admin disables an account after confirming, its owner is signed out and refused, then enables it", async ({
  page,
}) => {
  // Three sign-ins and two changes: room for a busy machine.
  test.slow();
  const customer = await signedInCustomer(page, "disabled");
  const customerCookies = await page.context().cookies();
  await page.context().clearCookies();
  await signInByRequest(page, demoAdmin);

  await page.goto(`/admin/users?q=${encodeURIComponent(customer.email)}`);
  await page.getByTestId("account-row").getByRole("link", { name: customer.fullName }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(customer.fullName);
  await expect(page.getByTestId("account-status")).toHaveText("Active");

  await page.getByRole("link", { name: "Disable account" }).click();
  await expect(page.getByRole("heading", { name: "Disable this account?" })).toBeVisible();
  await page.getByRole("button", { name: "Disable account" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Account disabled" })).toBeAttached();
  await expect(page.getByTestId("account-status")).toContainText("Disabled");
  await expect(page.getByRole("heading", { name: "Disable this account?" })).toHaveCount(0);
  await page.goto(`/admin/users?q=${encodeURIComponent(customer.email)}`);
  await expect(page.getByTestId("account-row")).toContainText("Disabled");

  // The owner's session has ended, and the right password says why they cannot sign in.
  await page.context().clearCookies();
  await page.context().addCookies(customerCookies);
  await page.goto("/sms/sendSms");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await login(page, customer, /\/login/);
  await expect(page.getByText("This account has been disabled.")).toBeVisible();

  await page.context().clearCookies();
  await signInByRequest(page, demoAdmin);
  await page.goto(`/admin/users?q=${encodeURIComponent(customer.email)}`);
  await page.getByTestId("account-row").getByRole("link", { name: customer.fullName }).click();
  await page.getByRole("button", { name: "Enable account" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Account enabled again." })).toBeAttached();
  await expect(page.getByTestId("account-status")).toHaveText("Active");

  await page.context().clearCookies();
  await signInByRequest(page, customer);
});
