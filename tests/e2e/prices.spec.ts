// Prices by destination through the screens, with and without JavaScript: the admin adds a prefix
// (a mistake first, answered beside its field), edits it, imports a CSV (a bad line named, nothing
// imported, then the fixed file), deletes one; a visitor finds the list from the pricing page and
// prices a number. Prefixes are this run's own (Icelandic mobiles, one range per project): the other
// specs send at 1 credit a segment.
import type { Page } from "@playwright/test";
import { demoAdmin, expect, signInByRequest, test } from "#tests/e2e/fixtures.ts";

/** The table row whose first cell is exactly `+prefix`. */
const rowOf = (page: Page, testId: string, prefix: string) =>
  page.getByTestId(testId).filter({ has: page.getByRole("cell", { name: `+${prefix}`, exact: true }) });
/** Its credits per segment (the second cell). */
const creditsOf = (page: Page, testId: string, prefix: string) => rowOf(page, testId, prefix).getByRole("cell").nth(1);

test("an admin keeps the price list and a visitor sees it", async ({ page, browser, baseURL, javaScriptEnabled }) => {
  test.slow();
  const own = `${javaScriptEnabled ? "35469" : "35478"}${Math.floor(Math.random() * 10)}`;
  const imported = `${own}5`;
  const number = `+${own}1234`;
  await signInByRequest(page, demoAdmin);

  await page.goto("/admin/prices");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prices");
  await page.getByLabel("Prefix", { exact: true }).fill(`+${own}x`);
  await page.getByLabel("Credits per segment").fill("3");
  await page.getByRole("button", { name: "Add price" }).click();
  await expect(page.getByText("A prefix is digits after an optional +, such as +44 7700, or *")).toBeVisible();
  await page.getByLabel("Prefix", { exact: true }).fill(`+${own.slice(0, 3)} ${own.slice(3)}`);
  await page.getByLabel("Credits per segment").fill("3");
  await page.getByRole("button", { name: "Add price" }).click();
  await expect(creditsOf(page, "price-row", own)).toHaveText("3");

  await rowOf(page, "price-row", own)
    .getByRole("link", { name: `Edit +${own}` })
    .click();
  await expect(page.getByRole("heading", { name: `Edit +${own}` })).toBeVisible();
  await page.getByLabel("Credits per segment").fill("4");
  await page.getByRole("button", { name: "Save price" }).click();
  await expect(creditsOf(page, "price-row", own)).toHaveText("4");

  // A file with a bad line: named, and nothing imported.
  await page.getByLabel("CSV file").setInputFiles({
    name: "prices.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`prefix,credits_per_segment\n+${imported},2\n+${imported}9,none\n`),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("Line 3: Credits per segment must be a number")).toBeVisible();
  await expect(rowOf(page, "price-row", imported)).toHaveCount(0);
  await page.getByLabel("CSV file").setInputFiles({
    name: "prices.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`prefix,credits_per_segment\n+${imported},2\n`),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(creditsOf(page, "price-row", imported)).toHaveText("2");

  // A visitor, signed out: from the pricing page to the list, and a number priced.
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const visitor = await context.newPage();
  await visitor.goto("/");
  await visitor.getByRole("link", { name: "prices by destination" }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Prices by destination");
  await expect(creditsOf(visitor, "destination-price-row", own)).toHaveText("4");
  await visitor.getByLabel("What does a number cost?").fill(number);
  await visitor.getByRole("button", { name: "Check" }).click();
  await expect(visitor.getByTestId("number-price")).toHaveText(`A message to ${number} costs 4 credits per segment.`);
  await context.close();

  // Deleted: gone from both lists.
  for (const prefix of [imported, own]) {
    await page.getByRole("button", { name: `Delete +${prefix}`, exact: true }).click();
    await expect(rowOf(page, "price-row", prefix)).toHaveCount(0);
  }
});
