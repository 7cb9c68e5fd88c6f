// The operator's credit grant screen, with and without JavaScript: find the account, make mistakes
// first (each answered next to its field), then add and remove credits with a reason.
import { demoAdmin, expect, login, newAccount, register, test } from "#tests/e2e/fixtures.ts";

test("an admin finds an account and adds and removes credits with a reason", async ({ page }) => {
  // A long journey (a sign-up, a sign-in, four bookings): room for a busy machine.
  test.slow();
  const customer = newAccount("granted");
  await register(page, customer);
  await login(page, demoAdmin);

  await page.getByText("Admin", { exact: true }).click();
  await page.getByRole("link", { name: "Accounts & Credits" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Accounts");
  // The database's size and the retention (unset: kept forever), above the list.
  await expect(page.getByTestId("database-size")).toContainText(/^Database: \d+\.\d MB .* messages kept forever/);
  await page.getByLabel("Search").fill(customer.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/admin\/users\?q=/);
  const row = page.getByTestId("account-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(customer.email);
  await row.getByRole("link", { name: customer.fullName }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(customer.fullName);
  await expect(page.getByTestId("account-balance")).toHaveText("0 credits");
  const book = page.getByRole("button", { name: "Book change" });

  // Nothing filled in: every field says what is missing.
  await book.click();
  await expect(page.getByText("Choose whether to add or remove credits")).toBeVisible();
  await expect(page.getByText("Amount is required")).toBeVisible();
  await expect(page.getByText("Reason is required")).toBeVisible();

  // Removing from an empty balance is refused next to the amount, and nothing is booked.
  await page.getByLabel("Remove credits").check();
  await page.getByLabel("Amount (credits)").fill("5");
  await page.getByLabel("Reason").fill("Correction");
  await book.click();
  await expect(page.getByText("Only 0 credits available: there is nothing to remove.")).toBeVisible();
  await expect(page.getByLabel("Amount (credits)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("ledger-row")).toHaveCount(0);

  await page.getByLabel("Add credits").check();
  await page.getByLabel("Amount (credits)").fill("250");
  await page.getByLabel("Reason").fill("Invoice 2026-042, paid by bank transfer");
  await book.click();
  await expect(page.getByTestId("toast").filter({ hasText: "Added 250 credits. Balance: 250." })).toBeAttached();
  await expect(page.getByTestId("account-balance")).toHaveText("250 credits");
  const granted = page.getByTestId("ledger-row").first();
  await expect(granted).toContainText("+250");
  await expect(granted).toContainText("Invoice 2026-042, paid by bank transfer");
  await expect(granted).toContainText(demoAdmin.fullName);
  await expect(granted).toContainText(demoAdmin.email);

  // The form is fresh after a booking (a new request key), so a second change books too.
  await page.getByLabel("Remove credits").check();
  await page.getByLabel("Amount (credits)").fill("50");
  await page.getByLabel("Reason").fill("Duplicate grant");
  await book.click();
  await expect(page.getByTestId("toast").filter({ hasText: "Removed 50 credits. Balance: 200." })).toBeAttached();
  await expect(page.getByTestId("account-balance")).toHaveText("200 credits");
  await expect(page.getByTestId("ledger-row")).toHaveCount(2);
  await expect(page.getByTestId("ledger-row").first()).toContainText("−50");
  await expect(page.getByTestId("ledger-row").first()).toContainText("Duplicate grant");
});
