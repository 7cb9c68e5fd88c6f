import { randomUUID } from "node:crypto";
import { getDb } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema/shop.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { demoAdmin, expect, login, test } from "#tests/e2e/fixtures.ts";
import { useServerData } from "#tests/e2e/server-data.ts";

// A busy shared machine can take most of a minute to sign in: three times the usual limit.
test.slow();

/** Orders straight into the e2e database, tagged so parallel tests never see each other's. */
async function seedOrders(tag: string, count: number) {
  useServerData();
  const customer = (await findUserByEmail("demo@example.com"))!;
  const rows = Array.from({ length: count }, (_, i) => ({
    userId: customer.id,
    pickupName: `${tag} Buyer ${i}`,
    pickupEmail: `${tag}.${i}@example.com`,
    pickupPhone: `+1555${String(i).padStart(7, "0")}`,
    totalCents: 500,
    totalItems: 1,
    totalCredits: 100,
    status: "Confirmed" as const,
  }));
  await getDb().insert(orders).values(rows).run();
}

test("Previous and Next keep the chosen page size (the spec's reset to 5 is a defect)", async ({ page }) => {
  const tag = `pgr${randomUUID().slice(0, 6)}`;
  await seedOrders(tag, 12);
  await login(page, demoAdmin);
  await page.goto(`/order/allOrders?q=${tag}`);
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(5);

  await page.getByLabel("Rows per page").selectOption("10");
  if (test.info().project.name === "no-js") await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/size=10/);
  await expect(rows).toHaveCount(10);
  await expect(page.getByText("Showing 1–10 of 12")).toBeVisible();

  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2&size=10/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByText("Showing 11–12 of 12")).toBeVisible();
  await expect(page.getByLabel("Rows per page")).toHaveValue("10");

  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL(/page=1&size=10/);
  await expect(rows).toHaveCount(10);
  await expect(page.getByLabel("Rows per page")).toHaveValue("10");
});

test("a page past the end shows the last page, and Previous steps back from it", async ({ page }) => {
  const tag = `pge${randomUUID().slice(0, 6)}`;
  await seedOrders(tag, 12);
  await login(page, demoAdmin);
  await page.goto(`/order/allOrders?q=${tag}&page=9&size=10`);
  await expect(page.getByTestId("order-row")).toHaveCount(2);
  await expect(page.getByText("Showing 11–12 of 12")).toBeVisible();
  await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);
  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL(/page=1&size=10/);
  await expect(page.getByTestId("order-row")).toHaveCount(10);
});
