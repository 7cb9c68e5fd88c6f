// Every conform form, as a person uses it: submit with an error first, correct it, submit again,
// and see the result (issue 14: with JavaScript, the support forms dropped the second submit).
// One signed-in customer and one signed-in admin per worker keep each test to its own form.
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { getSqlite } from "#app/db/client.server.ts";
import * as users from "#app/modules/auth/users.server.ts";
import * as contacts from "#app/modules/contacts/contacts.server.ts";
import * as groups from "#app/modules/contacts/groups.server.ts";
import * as ledger from "#app/modules/credits/ledger.server.ts";
import * as cart from "#app/modules/shop/cart.server.ts";
import * as orders from "#app/modules/shop/orders.server.ts";
import { type Account, test as base, demoAdmin, expect, login, newAccount, register } from "#tests/e2e/fixtures.ts";
import { useServerData } from "#tests/e2e/server-data.ts";

type Role = "customer" | "admin";
type SignedIn = { account: Account; storageState: Awaited<ReturnType<BrowserContext["storageState"]>> };

async function signIn(browser: Browser, baseURL: string | undefined, role: Role): Promise<SignedIn> {
  const account = role === "admin" ? demoAdmin : newAccount("retry");
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  if (role === "customer") await register(page, account);
  await login(page, account);
  const storageState = await context.storageState();
  await context.close();
  return { account, storageState };
}

const test = base.extend<{ as: Role | "nobody"; customer: Account }, { signedIn: (role: Role) => Promise<SignedIn> }>({
  // Each worker signs in once per role, when a test first needs it.
  signedIn: [
    async ({ browser }, use, workerInfo) => {
      const sessions = new Map<Role, Promise<SignedIn>>();
      await use((role) => {
        if (!sessions.has(role)) sessions.set(role, signIn(browser, workerInfo.project.use.baseURL, role));
        return sessions.get(role)!;
      });
    },
    { scope: "worker" },
  ],
  as: ["customer", { option: true }],
  customer: async ({ signedIn }, use) => use((await signedIn("customer")).account),
  storageState: async ({ as, signedIn }, use) =>
    use(as === "nobody" ? { cookies: [], origins: [] } : (await signedIn(as)).storageState),
});

// A busy shared machine can take most of a minute to sign in: three times the usual limit.
test.slow();

// Setup straight into the e2e server's database (the screens under test are the forms).
async function app() {
  useServerData();
  const sqlite = getSqlite();
  const userId = async (email: string) => (await users.findUserByEmail(email))!.id;
  const smallestPackage = () =>
    (sqlite.prepare("select id from packages order by credits limit 1").get() as { id: number }).id;
  return {
    sqlite,
    smallestPackage,
    grant: async (email: string, amount: number) =>
      await ledger.book({ userId: await userId(email), kind: "grant", amount, key: `e2e-retry:${randomUUID()}` }),
    addToCart: async (email: string) => await cart.addToCart(await userId(email), smallestPackage(), 1),
    contact: async (email: string, name: string) =>
      await contacts.createContact(await userId(email), {
        name,
        phone: uniquePhone(),
        email: "someone@example.com",
        groupIds: [],
      }),
    group: async (email: string, name: string) =>
      await groups.createGroup(await userId(email), { name, description: "Made by forms-retry" }),
    pendingOrder: async (email: string) => {
      await cart.addToCart(await userId(email), smallestPackage(), 1);
      const order = await orders.createOrderFromCart(await userId(email), {
        name: "Retry Buyer",
        email,
        phone: "+15550102030",
      });
      if (!order.ok) throw new Error("empty cart");
      return order.orderId;
    },
  };
}

const uniquePhone = () => `+1202555${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
const suffix = () => randomUUID().slice(0, 6);
const toast = (page: Page, text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text });
const refused = (field: Locator) => expect(field).toHaveAttribute("aria-invalid", "true");

test.describe("signed out", () => {
  test.use({ as: "nobody" });

  test("register", async ({ page }) => {
    const account = newAccount("retryreg");
    await page.goto("/register");
    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Register" }).click();
    await refused(page.getByLabel("Full Name"));
    await page.getByLabel("Full Name").fill(account.fullName);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, "Registration successful!")).toBeAttached();
  });

  test("login", async ({ page, customer }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(customer.email);
    await page.getByRole("button", { name: "Login" }).click();
    await refused(page.getByLabel("Password"));
    await page.getByLabel("Password").fill(customer.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/sms\/sendSms$/);
  });

  test("contact us", async ({ page }) => {
    const subject = `Retry contact ${suffix()}`;
    await page.goto("/sms/contact");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Subject is required")).toBeVisible();
    await page.getByLabel("Name").fill("Retry Visitor");
    await page.getByLabel("Email").fill("retry-visitor@example.com");
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Message").fill("Second try");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(toast(page, "Support request sent successfully!")).toBeVisible();
    const { sqlite } = await app();
    expect(sqlite.prepare("select count(*) as n from support_requests where subject = ?").get(subject)).toEqual({
      n: 1,
    });
  });
});

test.describe("customer", () => {
  test("support", async ({ page }) => {
    const subject = `Retry support ${suffix()}`;
    await page.goto("/sms/support");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Subject is required")).toBeVisible();
    await expect(page.getByText("Message is required")).toBeVisible();
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Message").fill("Second try");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(toast(page, "Support request sent successfully!")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: subject })).toContainText("Open");
  });

  test("send SMS", async ({ page, customer }) => {
    await (await app()).grant(customer.email, 1);
    const body = `Retry send ${suffix()}`;
    await page.goto("/sms/sendSms");
    await page.getByLabel("Phone Number").fill("12");
    await page.getByLabel("Message").fill(body);
    await page.getByRole("button", { name: "Send SMS" }).click();
    await refused(page.getByLabel("Phone Number"));
    await page.getByLabel("Phone Number").fill(uniquePhone());
    await page.getByRole("button", { name: "Send SMS" }).click();
    await expect(toast(page, "SMS sent successfully!")).toBeVisible();
    await page.goto("/sms/messageHistory");
    await expect(page.getByTestId("message-row").filter({ hasText: body })).toHaveCount(1);
  });

  test("schedule SMS", async ({ page, customer }) => {
    await (await app()).grant(customer.email, 1);
    const body = `Retry schedule ${suffix()}`;
    await page.goto("/sms/scheduleSms");
    await page.getByLabel("Start Date and Time").fill("2020-01-15T09:00");
    await page.getByLabel("Phone Number").fill(uniquePhone());
    await page.getByLabel("Message").fill(body);
    await page.getByRole("button", { name: "Add SMS" }).click();
    await expect(page.getByText("The first send must be in the future")).toBeVisible();
    await page.getByLabel("Start Date and Time").fill(`${new Date().getFullYear() + 1}-01-15T09:00`);
    await page.getByRole("button", { name: "Add SMS" }).click();
    await expect(toast(page, "SMS scheduled successfully!")).toBeVisible();
    await page.goto("/sms/scheduled");
    await expect(page.getByTestId("schedule-row").filter({ hasText: body })).toContainText("Active");
  });

  test("create contact", async ({ page }) => {
    const name = `Retry Contact ${suffix()}`;
    await page.goto("/sms/createContact");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create Contact" }).click();
    await refused(page.getByLabel("Phone Number"));
    await page.getByLabel("Phone Number").fill(uniquePhone());
    await page.getByLabel("Email").fill("retry-contact@example.com");
    await page.getByRole("button", { name: "Create Contact" }).click();
    await expect(toast(page, "Contact created successfully!")).toBeVisible();
    await expect(page.getByTestId("contact-row").filter({ hasText: name })).toBeVisible();
  });

  test("create group", async ({ page }) => {
    const name = `Retry Group ${suffix()}`;
    await page.goto("/sms/createGroup");
    await page.getByLabel("Group Name").fill(name);
    await page.getByRole("button", { name: "Create Group" }).click();
    await refused(page.getByLabel("Group Description"));
    await page.getByLabel("Group Description").fill("Second try");
    await page.getByRole("button", { name: "Create Group" }).click();
    await expect(toast(page, "Group created successfully!")).toBeVisible();
    await expect(page.getByTestId("group-row").filter({ hasText: name })).toBeVisible();
  });

  test("edit contact panel", async ({ page, customer }) => {
    const contact = await (await app()).contact(customer.email, `Retry Edit ${suffix()}`);
    await page.goto(`/sms/accountContacts?panel=edit&id=${contact.id}`);
    const panel = page.getByRole("region", { name: `Edit Contact: ${contact.name}` });
    await panel.getByLabel("Name").fill("");
    await panel.getByRole("button", { name: "Update Contact" }).click();
    await refused(panel.getByLabel("Name"));
    await panel.getByLabel("Name").fill(`${contact.name} Renamed`);
    await panel.getByRole("button", { name: "Update Contact" }).click();
    await expect(toast(page, "Contact updated successfully!")).toBeVisible();
    await expect(page.getByTestId("contact-row").filter({ hasText: `${contact.name} Renamed` })).toBeVisible();
  });

  test("send panel of a contact", async ({ page, customer }) => {
    const setup = await app();
    await setup.grant(customer.email, 1);
    const contact = await setup.contact(customer.email, `Retry Send ${suffix()}`);
    await page.goto(`/sms/accountContacts?panel=send&id=${contact.id}`);
    const panel = page.getByRole("region", { name: `Send SMS to ${contact.name}` });
    await panel.getByRole("button", { name: "Send SMS" }).click();
    await refused(panel.getByLabel("Message"));
    await panel.getByLabel("Message").fill("Second try");
    await panel.getByRole("button", { name: "Send SMS" }).click();
    await expect(toast(page, "SMS sent successfully!")).toBeVisible();
    await expect(page.getByRole("region", { name: `Send SMS to ${contact.name}` })).toHaveCount(0);
  });

  test("edit group panel", async ({ page, customer }) => {
    const group = await (await app()).group(customer.email, `Retry Edit Group ${suffix()}`);
    await page.goto(`/sms/accountGroups?panel=edit&id=${group.id}`);
    const panel = page.getByRole("region", { name: `Edit Group: ${group.name}` });
    await panel.getByLabel("Group Name").fill("");
    await panel.getByRole("button", { name: "Update Group" }).click();
    await refused(panel.getByLabel("Group Name"));
    await panel.getByLabel("Group Name").fill(`${group.name} Renamed`);
    await panel.getByRole("button", { name: "Update Group" }).click();
    await expect(toast(page, "Group updated successfully!")).toBeVisible();
    await expect(page.getByTestId("group-row").filter({ hasText: `${group.name} Renamed` })).toBeVisible();
  });

  test("import contacts: column mapping", async ({ page }) => {
    const name = `Retry Import ${suffix()}`;
    await page.goto("/sms/importContacts");
    const csv = `name,phone,email\n${name},${uniquePhone()},import@example.com\n`;
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "retry.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and preview" }).click();
    await page.getByLabel("Phone Number").selectOption("");
    await page.getByRole("button", { name: "Import Contacts" }).click();
    await refused(page.getByLabel("Phone Number"));
    await page.getByLabel("Phone Number").selectOption({ label: "Column 2: phone" });
    await page.getByRole("button", { name: "Import Contacts" }).click();
    await expect(toast(page, "Imported 1 contact")).toBeVisible();
    await expect(page.getByTestId("import-summary")).toContainText("Imported 1, updated 0, skipped 0.");
  });

  test("add to cart", async ({ page }) => {
    const packageId = (await app()).smallestPackage();
    await page.goto(`/menuItemDetails/${packageId}`);
    await page.getByRole("spinbutton", { name: "Quantity" }).fill("0");
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await refused(page.getByRole("spinbutton", { name: "Quantity" }));
    await page.getByRole("spinbutton", { name: "Quantity" }).fill("1");
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(toast(page, "Item added to cart successfully!")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test("shopping cart: order details", async ({ page, customer }) => {
    await (await app()).addToCart(customer.email);
    await page.goto("/shoppingCart");
    await page.getByLabel("Name").fill("");
    await page.getByLabel("Phone Number").fill("+1 555 010 2030");
    await page.getByRole("button", { name: "Place Order" }).click();
    await refused(page.getByLabel("Name"));
    await page.getByLabel("Name").fill("Retry Buyer");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL(/\/payment\?orderId=\d+$/);
  });

  test("payment", async ({ page, customer }) => {
    const orderId = await (await app()).pendingOrder(customer.email);
    await page.goto(`/payment?orderId=${orderId}`);
    await page.getByLabel("Card number").fill("4242 4242 4242 4241");
    await page.getByLabel("Expiry (MM/YY)").fill("12/40");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page.getByText("Your card number is invalid.")).toBeVisible();
    // The card's details are never sent back to the page: all three again.
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/40");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page).toHaveURL(new RegExp(`/order/orderconfirmed/${orderId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Order has been Confirmed!");
  });
});

test.describe("admin", () => {
  test.use({ as: "admin" });

  test("order status", async ({ page }) => {
    const orderId = await (await app()).pendingOrder("demo@example.com");
    await page.goto(`/order/orderDetails/${orderId}`);
    const status = page.getByLabel("New status");
    // The screen offers only allowed statuses: a stale or edited page can still post another.
    await status.evaluate((select: HTMLSelectElement) => select.add(new Option("Bogus", "Bogus", true, true)));
    await page.getByRole("button", { name: "Update Status" }).click();
    await refused(page.getByLabel("New status"));
    await page.getByLabel("New status").selectOption("Cancelled");
    await page.getByRole("button", { name: "Update Status" }).click();
    await expect(toast(page, "Order cancelled.")).toBeVisible();
  });

  test("menu item", async ({ page }) => {
    const name = `Retry Pack ${suffix()}`;
    const { sqlite } = await app();
    try {
      await page.goto("/menuItem/menuItemUpsert");
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Create" }).click();
      await refused(page.getByLabel("Price ($)"));
      await page.getByLabel("Price ($)").fill("1.25");
      await page.getByLabel("Credits").fill("7");
      await page.getByLabel("Image").setInputFiles(resolve("public/images/packages/credits-500.png"));
      await page.getByRole("button", { name: "Create" }).click();
      await expect(toast(page, "Menu Item created/updated successfully")).toBeVisible();
      await expect(page.getByTestId("menu-item-row").filter({ hasText: name })).toContainText("$1.25");
    } finally {
      // Other journeys read the home page's packages.
      sqlite.prepare("delete from packages where name = ?").run(name);
    }
  });
});
