import { expect, login, newAccount, register, test } from "#tests/e2e/fixtures.ts";

test("register, login, see welcome and balance, logout", async ({ page }) => {
  const account = newAccount("journey");
  await register(page, account);
  await expect(page.getByTestId("toast")).toContainText("Registration successful! Please login to continue.");

  await login(page, account);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toContainText(`Welcome, ${account.fullName}`);
  await expect(nav.getByTestId("balance")).toHaveText("Account balance: 0 credits");
  await expect(nav.getByRole("link", { name: /Shopping cart, 0 items/ })).toBeVisible();
  await expect(nav.getByText("Control Panel")).toBeVisible();

  await nav.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Try for free" })).toBeVisible();

  // The session ended on the server: a protected page asks for login again.
  await page.goto("/sms/sendSms");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsms%2FsendSms$/);
});

test("bad register input gets messages next to the fields", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByText("Full name is required")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test("registering an email twice is refused next to the email field", async ({ page }) => {
  const account = newAccount("dup");
  await register(page, account);
  await page.goto("/register");
  await page.getByLabel("Email").fill(account.email.toUpperCase());
  await page.getByLabel("Full Name").fill("Someone Else");
  await page.getByLabel("Password").fill("another-password");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("An account with this email already exists.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
});

test("a password among the most common ones is refused next to the password field", async ({ page }) => {
  const account = newAccount("common");
  await page.goto("/register");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Full Name").fill(account.fullName);
  await page.getByLabel("Password").fill("Password1");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(
    page.getByText(
      "This password is too common: it is among the 10,000 most used passwords. Please choose another one.",
    ),
  ).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/register$/);
});

test("bad login shows one inline error without saying whether the account exists", async ({ page }) => {
  const account = newAccount("badlogin");
  await register(page, account);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Login" }).click();
  const error = page.getByRole("alert").filter({ hasText: "Invalid email or password." });
  await expect(error).toBeVisible();
  await expect(error).toHaveClass(/text-red-600/);

  await page.getByLabel("Email").fill("nobody-here@example.com");
  await page.getByLabel("Password").fill("whatever-password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
});

test("login sends the user back to the page that asked for it", async ({ page }) => {
  const account = newAccount("back");
  await register(page, account);
  await page.goto("/sms/messageHistory");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await login(page, account, /\/sms\/messageHistory$/);
});
