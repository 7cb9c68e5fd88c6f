import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { asc, eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { orders, packages } from "#app/db/schema/shop.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { addToCart } from "#app/modules/shop/cart.server.ts";
import { serverUser } from "#tests/e2e/credits.ts";
import { demoAdmin, expect, signedInCustomer, signInByRequest, test } from "#tests/e2e/fixtures.ts";
import { useServerData } from "#tests/e2e/server-data.ts";

// With JavaScript toasts stay listed until they close; the newest is the last.
const toast = (page: Page) => page.getByTestId("toast").last();
const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const cartLink = (page: Page, count: number) =>
  nav(page).getByRole("link", { name: `Shopping cart, ${count} ${count === 1 ? "item" : "items"}` });

async function addPackage(page: Page, title: string) {
  await page.goto("/");
  await page.getByRole("link", { name: `View details of ${title}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByRole("spinbutton", { name: "Quantity" })).toHaveValue("1");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(toast(page)).toContainText("Item added to cart successfully!");
}

async function placeOrder(page: Page) {
  await nav(page)
    .getByRole("link", { name: /Shopping cart/ })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shopping Cart");
  await page.getByLabel("Phone Number").fill("+1 555 010 2030");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page).toHaveURL(/\/payment\?orderId=\d+$/);
  return Number(new URL(page.url()).searchParams.get("orderId"));
}

async function payWith(page: Page, card: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Submit Order" }).click();
}

/** Cart lines written straight into the database (package names as seeded: "100", "1,000"...). */
async function seedCart(email: string, lines: { name: string; quantity: number }[]) {
  const user = await serverUser(email);
  for (const line of lines) {
    const pack = await getDb()
      .select({ id: packages.id })
      .from(packages)
      .where(eq(packages.name, line.name))
      .orderBy(asc(packages.id))
      .get();
    if (!pack || !(await addToCart(user.id, pack.id, line.quantity))) throw new Error(`No package ${line.name}`);
  }
}

test("browse: search and sort the packages, all in the URL", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose Your SMS Pricing Plan");
  await page.getByLabel("Search").fill("1000");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=1000/);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(["1,000 SMS Credits", "10,000 SMS Credits"]);
  await page.getByLabel("Sort by").selectOption({ label: "Price High - Low" });
  // Without JavaScript the choice applies on Search (with it, at once).
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/sort=price-desc/);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(["10,000 SMS Credits", "1,000 SMS Credits"]);
});

test("a package's page: choose a quantity, add it to the cart, the cart counts it", async ({ page }) => {
  await signedInCustomer(page, "shopper");
  await page.goto("/?q=1000");
  await page.getByRole("link", { name: "View details of 1,000 SMS Credits" }).click();
  const quantity = page.getByRole("spinbutton", { name: "Quantity" });
  await expect(quantity).toHaveValue("1");
  await expect(page.getByRole("button", { name: "Decrease quantity" })).toBeDisabled();
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await expect(quantity).toHaveValue("2");
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await expect(quantity).toHaveValue("3");
  await page.getByRole("button", { name: "Decrease quantity" }).click();
  await expect(quantity).toHaveValue("2");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(toast(page)).toContainText("Item added to cart successfully!");
  await expect(cartLink(page, 2)).toBeVisible();
  await addPackage(page, "100 SMS Credits");
  await expect(cartLink(page, 3)).toBeVisible();
});

test("the cart: change quantities, remove lines, the totals follow", async ({ page }) => {
  const account = await signedInCustomer(page, "cart");
  await seedCart(account.email, [
    { name: "1,000", quantity: 2 },
    { name: "100", quantity: 1 },
  ]);
  await page.goto("/");
  await cartLink(page, 3).click();
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(2);
  const big = lines.filter({ hasText: "1,000 SMS Credits" });
  await big.getByRole("button", { name: "Increase quantity of 1,000 SMS Credits" }).click();
  await expect(big.getByTestId("line-total")).toHaveText("$120.00");
  await big.getByRole("button", { name: "Decrease quantity of 1,000 SMS Credits" }).click();
  await expect(big.getByTestId("line-total")).toHaveText("$80.00");
  const small = lines.filter({ hasText: "100 SMS Credits" }).filter({ hasNotText: "1,000" });
  await small.getByRole("button", { name: "Decrease quantity of 100 SMS Credits" }).click();
  await expect(lines).toHaveCount(1);
  await addPackage(page, "100 SMS Credits");
  await cartLink(page, 3).click();
  await page.getByRole("button", { name: "Remove 100 SMS Credits" }).click();
  await expect(lines).toHaveCount(1);
  await expect(page.getByTestId("grand-total")).toHaveText("$80.00");
  await expect(page.getByTestId("total-items")).toHaveText("2");
  await expect(page.getByLabel("Name")).not.toHaveValue("");
});

test("place an order, pay with 4242, see the credits and the order", async ({ page }) => {
  const account = await signedInCustomer(page, "payer");
  await seedCart(account.email, [{ name: "1,000", quantity: 2 }]);
  await page.goto("/");
  const orderId = await placeOrder(page);
  await expect(page.getByTestId("amount-due")).toHaveText("$80.00");
  await payWith(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(new RegExp(`/order/orderconfirmed/${orderId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Order has been Confirmed!");
  await expect(page.getByTestId("order-id")).toHaveText(String(orderId));
  await expect(page.getByText("Your account has been credited with 2,000 SMS credits.")).toBeVisible();
  await expect(nav(page).getByTestId("balance")).toHaveText("Account balance: 2,000 credits");
  await expect(cartLink(page, 0)).toBeVisible();

  await page.goto("/order/myOrders");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Orders");
  await expect(page.getByText("Your Recent Orders")).toBeVisible();
  const row = page
    .getByTestId("order-row")
    .filter({ has: page.getByRole("cell", { name: String(orderId), exact: true }) });
  await expect(row).toContainText("Confirmed");
  await expect(row).toContainText("$80.00");
  await row.getByRole("link", { name: `View order ${orderId}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Order Summary");
  await page.getByRole("link", { name: "Back to Orders" }).click();
  await expect(page).toHaveURL(/\/order\/myOrders$/);
});

test("a declined card leaves the order pending, the cart intact and no credits", async ({ page }) => {
  const account = await signedInCustomer(page, "declined");
  await page.goto("/order/myOrders");
  await expect(page.getByText("You do not have any previous orders.")).toBeVisible();
  await seedCart(account.email, [{ name: "500", quantity: 2 }]);
  const orderId = await placeOrder(page);

  await payWith(page, "4242 4242 4242 4241");
  await expect(page.getByText("Your card number is invalid.")).toBeVisible();
  await payWith(page, "4000 0000 0000 0002");
  await expect(page.getByRole("alert").filter({ hasText: "Your card was declined." }).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/payment\\?orderId=${orderId}$`));
  await payWith(page, "4000 0000 0000 9995");
  await expect(page.getByRole("alert").filter({ hasText: "Your card has insufficient funds." }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit Order" })).toBeEnabled();

  await expect(nav(page).getByTestId("balance")).toHaveText("Account balance: 0 credits");
  await expect(cartLink(page, 2)).toBeVisible();
  await page.goto("/order/myOrders");
  await expect(page.getByTestId("order-row").filter({ hasText: String(orderId) })).toContainText("Pending");
  await page.goto(`/order/orderconfirmed/${orderId}`);
  await expect(page).toHaveURL(new RegExp(`/failed\\?orderId=${orderId}$`));
  await expect(page.getByText("Your card has insufficient funds.")).toBeVisible();
  await page.getByRole("link", { name: "Back to Cart" }).click();
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
});

test("customer B gets NotFound for customer A's order", async ({ page, browser }) => {
  const alice = await signedInCustomer(page, "alice");
  await seedCart(alice.email, [{ name: "100", quantity: 1 }]);
  await page.goto("/");
  const orderId = await placeOrder(page);
  const other = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const bob = await other.newPage();
  await signedInCustomer(bob, "bob");
  for (const path of [
    `/order/orderDetails/${orderId}`,
    `/order/orderconfirmed/${orderId}`,
    `/payment?orderId=${orderId}`,
    `/failed?orderId=${orderId}`,
  ]) {
    const response = await bob.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(bob.getByRole("heading", { level: 1 })).toHaveText("NotFound");
  }
  await other.close();
});

test.describe("admin", () => {
  // Orders straight into the e2e database, tagged so parallel tests never see each other's.
  async function seedOrders(tag: string) {
    useServerData();
    const customer = (await findUserByEmail("demo@example.com"))!;
    const statuses = [
      "Confirmed",
      "Being Cooked",
      "Cancelled",
      "Ready for Pickup",
      "Confirmed",
      "Cancelled",
      "Confirmed",
    ] as const;
    await getDb()
      .insert(orders)
      .values(
        statuses.map((status, i) => ({
          userId: customer.id,
          pickupName: `${tag} Buyer ${i}`,
          pickupEmail: `${tag}.${i}@example.com`,
          pickupPhone: `+1555${String(i).padStart(7, "0")}`,
          totalCents: 500 * (i + 1),
          totalItems: 1,
          totalCredits: 100,
          status,
        })),
      )
      .run();
  }

  test("filters, searches and pages orders, all in the URL", async ({ page }) => {
    const tag = `adm${randomUUID().slice(0, 6)}`;
    await seedOrders(tag);
    await signInByRequest(page, demoAdmin);
    await page.goto("/order/allOrders");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Orders List");
    await expect(page.getByText("In this demo, orders older than 3 days might be deleted!")).toHaveCount(0);
    await page.getByPlaceholder("Search Name, Email or Phone").fill(tag);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag}`));
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText(`${tag} Buyer 6`);
    await expect(page.getByText("Showing 1–5 of 7")).toBeVisible();
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();

    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2&size=5/);
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/page=1&size=5/);
    await expect(rows).toHaveCount(5);

    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    // A new size starts again at page 1.
    await page.getByLabel("Rows per page").selectOption("10");
    if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/size=10/);
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();
    await expect(rows).toHaveCount(7);
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();

    await page.getByLabel("Status").selectOption("Cancelled");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=Cancelled/);
    await expect(rows).toHaveCount(2);
    for (const badge of await rows.getByText("Cancelled").all()) await expect(badge).toHaveClass(/bg-red-600/);

    await page.goto(`/order/allOrders?q=${tag}&status=Being+Cooked&page=1&size=5`);
    await expect(rows).toHaveCount(1);
    await expect(rows.getByText("Being Cooked")).toHaveClass(/bg-cyan-500/);
    await expect(page.getByLabel("Status")).toHaveValue("Being Cooked");
    await page.goto(`/order/allOrders?q=${tag}.3%40example&size=5`);
    await expect(rows).toHaveCount(1);
    await expect(rows.getByText("Ready for Pickup")).toHaveClass(/bg-amber-400/);
  });

  test("creates, updates and deletes a menu item, refusing a renamed HTML file", async ({ page }) => {
    const name = `Pack ${randomUUID().slice(0, 6)}`;
    await signInByRequest(page, demoAdmin);
    await page.goto("/menuItem/menuitemlist");
    await page.getByRole("link", { name: "Add New Menu Item" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add Menu Item");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("Made by the e2e test");
    await page.getByLabel("Category").selectOption("beverages");
    await page.getByLabel("Price ($)").fill("12.50");
    await page.getByLabel("Credits").fill("250");
    await page.getByLabel("Image").setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: Buffer.from("<!doctype html><p>not an image</p>"),
    });
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("File Must be in jpeg, jpg or png")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue(name);

    await page.getByLabel("Image").setInputFiles({
      name: "pack.png",
      mimeType: "image/png",
      buffer: readFileSync(resolve("public/images/packages/credits-500.png")),
    });
    await page.getByRole("button", { name: "Create" }).click();
    await expect(toast(page)).toContainText("Menu Item created/updated successfully");
    await expect(page).toHaveURL(/\/menuItem\/menuitemlist$/);
    const row = page.getByTestId("menu-item-row").filter({ hasText: name });
    await expect(row).toContainText("$12.50");
    await expect(row).toContainText("Beverages");
    const image = row.locator("img");
    await expect(image).toHaveAttribute("src", /^\/uploads\/packages\/[0-9a-f-]+\.png$/);
    const served = await page.request.get((await image.getAttribute("src"))!);
    expect(served.status()).toBe(200);
    // The type its bytes were checked to be, never sniffed, inert if opened as a page.
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["x-content-type-options"]).toBe("nosniff");
    expect(served.headers()["content-security-policy"]).toBe("default-src 'none'; sandbox");

    await row.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Update Menu Item");
    await page.getByLabel("Name").fill(`${name} Plus`);
    await page.getByRole("button", { name: "Update" }).click();
    await expect(toast(page)).toContainText("Menu Item created/updated successfully");
    const renamed = page.getByTestId("menu-item-row").filter({ hasText: `${name} Plus` });
    await expect(renamed).toHaveCount(1);

    await renamed.getByRole("link", { name: `Delete ${name} Plus` }).click();
    await expect(page.getByText(`Are you sure you want to delete ${name} Plus SMS Credits?`)).toBeVisible();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toast(page)).toContainText("Menu Item Deleted Successfully");
    await expect(page.getByTestId("menu-item-row").filter({ hasText: name })).toHaveCount(0);
  });
});
