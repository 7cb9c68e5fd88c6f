// The e2e server runs in full test mode (the simulator, the offline processor): every page says so,
// and the demo customer signs in to a gateway already in use.
import { expect, login, test } from "#tests/e2e/fixtures.ts";

// Several screens per journey on a machine other tests keep busy.
test.describe.configure({ timeout: 120_000 });

const demoCustomer = { email: "demo@example.com", password: "demo12345", fullName: "Demo Customer" };

test("every page shows the test-mode banner, signed in or not", async ({ page }) => {
  for (const path of ["/", "/login", "/sms/blog", "/sms/termsandconditions"]) {
    await page.goto(path);
    const banner = page.getByRole("region", { name: "Test mode" });
    await expect(banner, path).toContainText("Payments are test cards: no card is charged.");
    await expect(banner, path).toContainText("Messages go to a simulator and reach no phone.");
    await expect(banner, path).toContainText("Demo accounts and sample data are loaded.");
  }
});

test("the demo customer sees contacts in groups, every delivery outcome with its reason, a campaign, a schedule and an API key", async ({
  page,
}) => {
  await login(page, demoCustomer);
  await expect(page.getByRole("region", { name: "Test mode" })).toBeVisible();

  await page.goto("/sms/messageHistory");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Message History");
  const history = page.getByRole("main");
  for (const label of ["Delivered", "Sent", "Undelivered", "Expired", "Rejected", "Failed", "Unknown"]) {
    // In the rows, not the status filter's options above them.
    await expect(history.getByTestId("message-row").getByText(label, { exact: true }).first(), label).toBeVisible();
  }
  await expect(history).toContainText("Carrier error 001");
  await expect(history).toContainText("Rejected by the carrier (simulated): invalid destination");
  await expect(history).toContainText("Interrupted while being handed to the carrier");

  await page.goto("/sms/accountContacts");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contacts");
  await expect(page.getByRole("main")).toContainText("Alice Martin");
  await expect(page.getByRole("main")).toContainText("Staff");

  await page.goto("/sms/accountGroups");
  await expect(page.getByRole("main")).toContainText("Customers");
  await expect(page.getByRole("main")).toContainText("Staff");

  await page.goto("/sms/scheduled");
  await expect(page.getByRole("main")).toContainText("Good morning team!");

  await page.goto("/sms/campaigns");
  await expect(page.getByRole("main")).toContainText("Spring offer");
  await expect(page.getByRole("main")).toContainText("Customers");

  await page.goto("/order/myOrders");
  await expect(page.getByRole("main")).toContainText("Confirmed");
});
