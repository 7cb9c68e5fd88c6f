// Import limits as a customer meets them: a file of 100,000 columns is refused beside the file field,
// and a file left waiting is listed on the upload screen, where it can be opened and cancelled.
import { expect, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

const upload = async (page: import("@playwright/test").Page, name: string, text: string) => {
  await page.getByLabel("CSV file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await page.getByRole("button", { name: "Upload and preview" }).click();
};

test("CSV import: a 100,000-column file is refused beside the file field", async ({ page }) => {
  await signUpAndLogin(page, "wide");
  await page.goto("/sms/importContacts");
  await upload(page, "wide.csv", `${",".repeat(99_999)}\nAnn,+12025550101,ann@example.com\n`);
  await expect(page.getByLabel("CSV file")).toHaveAccessibleDescription(/Row 1 has more than 50 columns\./);
  await expect(page.getByRole("heading", { name: "Files waiting to be imported" })).toHaveCount(0);
});

test("CSV import: a file left on its preview is listed on the upload screen and can be cancelled from there", async ({
  page,
}) => {
  await signUpAndLogin(page, "waiting");
  await page.goto("/sms/importContacts");
  await upload(page, "later.csv", "Ann,+12025550101,ann@example.com\n");
  await expect(page.getByText("later.csv: 1 row.")).toBeVisible();
  await page.goto("/sms/importContacts");
  await expect(page.getByRole("heading", { name: "Files waiting to be imported" })).toBeVisible();
  await page.getByRole("link", { name: "later.csv" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/sms\/accountContacts$/);
  await page.goto("/sms/importContacts");
  await expect(page.getByRole("heading", { name: "Files waiting to be imported" })).toHaveCount(0);
});
