import { demoAdmin, expect, login, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

const loginOnly = [
  "/menuItemDetails/1",
  "/shoppingCart",
  "/authentication",
  "/payment",
  // Where Stripe sends the browser back: its query must survive the trip through login.
  "/payment/return?orderId=1&payment_intent=pi_x",
  "/order/orderconfirmed/1",
  "/failed",
  "/order/myOrders",
  "/order/orderDetails/1",
  "/sms/sendSms",
  "/sms/scheduleSms",
  "/sms/scheduled",
  "/sms/messageHistory",
  "/sms/createContact",
  "/sms/accountContacts",
  "/sms/importContacts",
  "/sms/createGroup",
  "/sms/accountGroups",
  // A JSON resource route (the progress bar polls it), guarded by the same redirect as the pages.
  "/sms/groupSends/1",
  "/sms/apiToken",
  "/sms/support",
  "/sms/documentation",
  "/account/two-factor",
  "/account/sessions",
  "/account/confirm-password",
  "/account/settings",
  "/account/password",
];
const adminOnly = [
  "/authorization",
  "/order/allOrders",
  "/menuItem/menuitemlist",
  "/menuItem/menuItemUpsert",
  "/menuItem/menuItemUpsert/1",
  "/admin/support",
  "/admin/users",
  "/admin/users/1",
  "/admin/mail",
];

test("every login-only route sends a visitor to login and back", async ({ page }) => {
  // One page load per route (30+): room for a busy machine.
  test.slow();
  for (const path of [...loginOnly, ...adminOnly]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(
      new RegExp(`/login\\?redirectTo=${encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
    );
  }
});

test("admin-only routes send a customer to accessDenied", async ({ page }) => {
  test.slow();
  await signUpAndLogin(page, "guard");
  for (const path of adminOnly) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/accessDenied$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access Denied");
  }
});

test("admins reach admin pages; customers reach the sample authentication page", async ({ page }) => {
  await page.goto("/login");
  await login(page, demoAdmin);
  await page.goto("/authorization");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Authorization");
  await page.goto("/authentication");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Authentication");
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Accounts");
  for (const missing of ["/admin/users/999999999", "/admin/users/abc"]) {
    expect((await page.goto(missing))?.status(), missing).toBe(404);
  }
});

test("unknown paths render only NotFound with status 404", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.locator("body")).toHaveText("NotFound");
  await expect(page.getByRole("navigation")).toHaveCount(0);
});

test("public pages are open to visitors and the shell shows the visitor links", async ({ page }) => {
  for (const path of [
    "/",
    "/login",
    "/register",
    "/accessDenied",
    "/sms/contact",
    "/sms/termsandconditions",
    "/sms/blog",
    "/blog/sms-api-services-how-they-work",
    "/docs/api",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
  }
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Blog" })).toHaveAttribute("href", "/blog/sms-api-services-how-they-work");
  await expect(nav.getByRole("link", { name: "Contact" })).toHaveAttribute("href", "/sms/contact");
  await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getUTCFullYear()}`);
});
