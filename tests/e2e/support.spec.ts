import { randomUUID } from "node:crypto";
import { demoAdmin, expect, login, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

test("public contact and signed-in support requests reach the admin's support inbox", async ({ page }) => {
  const id = randomUUID().slice(0, 8);
  const contactSubject = `Volume pricing ${id}`;
  const supportSubject = `Delivery receipts ${id}`;

  // A visitor writes through the public contact form.
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
  await expect(page.getByText("100 Example Street, Suite 200, Springfield, USA")).toBeVisible();
  await expect(page.getByRole("link", { name: "support@example.com" })).toHaveAttribute(
    "href",
    "mailto:support@example.com",
  );
  await expect(page.getByLabel("Message")).toHaveAttribute("rows", "10");
  await page.getByLabel("Name").fill("Visitor Vera");
  await page.getByLabel("Email").fill(`vera-${id}@example.com`);
  await page.getByLabel("Subject").fill(contactSubject);
  await page.getByLabel("Message").fill("Do you offer volume pricing for 50,000 messages a month?");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Support request sent successfully!" })).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("");

  // A customer writes through the support form; name and e-mail come from the session.
  const account = await signUpAndLogin(page, "support");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Support" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Support");
  await expect(page.getByTestId("sender-email")).toHaveText(account.email);
  await page.getByLabel("Subject").fill(supportSubject);
  await page.getByLabel("Message").fill("My last three messages stay in 'sent'.");
  await page.getByRole("button", { name: "Submit" }).click();
  // .last(): the contact form's toast may still be fading out.
  await expect(
    page.getByTestId("toast").filter({ hasText: "Support request sent successfully!" }).last(),
  ).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: supportSubject })).toContainText("Open");

  // The admin sees both, reads one and marks it handled.
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await login(page, demoAdmin);
  await page.getByText("Admin", { exact: true }).click();
  await page.getByRole("link", { name: "Support Inbox" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Support Inbox");
  const table = page.getByRole("table");
  await expect(table.getByRole("row").filter({ hasText: contactSubject })).toContainText("Contact form");
  await expect(table.getByRole("row").filter({ hasText: supportSubject })).toContainText(account.email);

  await table.getByRole("link", { name: supportSubject }).click();
  await expect(page).toHaveURL(/\/admin\/support\?id=\d+$/);
  await expect(page.getByRole("heading", { level: 2, name: supportSubject })).toBeVisible();
  await expect(page.getByText("My last three messages stay in 'sent'.")).toBeVisible();
  // No SMTP_URL in this environment: the request is kept in the inbox only, and says so.
  await expect(page.getByTestId("mail-status")).toContainText("Saved only");
  await page.getByRole("button", { name: "Mark handled" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Support request marked as handled." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reopen" })).toBeVisible();
  await expect(table.getByRole("link", { name: supportSubject })).toHaveCount(0);

  await page.getByRole("link", { name: "Handled", exact: true }).click();
  await expect(page.getByRole("table").getByRole("link", { name: supportSubject })).toBeVisible();
});

test("bad contact input is refused next to each field and nothing is sent", async ({ page }) => {
  await page.goto("/sms/contact");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Email is required")).toBeVisible();
  await expect(page.getByText("Subject is required")).toBeVisible();
  await expect(page.getByText("Message is required")).toBeVisible();

  await page.getByLabel("Name").fill("Bob");
  await page.getByLabel("Email").fill("bob-at-example");
  await page.getByLabel("Subject").fill("Hi");
  await page.getByLabel("Message").fill("Hello");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("toast")).toHaveCount(0);
  await expect(page.getByLabel("Message")).toHaveValue("Hello");
});

test("the honeypot is out of reach for people and screen readers", async ({ page }) => {
  await page.goto("/sms/contact");
  const trap = page.locator('input[name="website"]');
  await expect(trap).toHaveAttribute("tabindex", "-1");
  await expect(trap).toHaveAttribute("autocomplete", "off");
  await expect(trap).not.toBeInViewport();
  await expect(page.getByRole("textbox")).toHaveCount(4);
});
