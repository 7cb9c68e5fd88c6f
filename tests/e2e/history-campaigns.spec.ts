import { readFile } from "node:fs/promises";
import { getSqlite } from "#app/db/client.server.ts";
import { waitForCampaignSummary } from "#tests/e2e/campaigns.ts";
import { groupRow, seedAddressBook } from "#tests/e2e/contacts.ts";
import { grantCredits, serverUser } from "#tests/e2e/credits.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

/** Finished messages written straight into the server's database: the history's starting state. */
async function seedHistory(email: string, rows: { body: string; status: "delivered" | "failed" }[]) {
  const user = await serverUser(email);
  const insert = getSqlite().prepare(
    `insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, error, source, created_at, updated_at, done_at)
     values (?, '+12025550150', ?, 'GSM-7', 1, 1, ?, ?, 'web', ?, ?, ?)`,
  );
  const now = Date.now();
  rows.forEach((row, i) =>
    insert.run(user.id, row.body, row.status, row.status === "failed" ? "Refused" : null, now + i, now + i, now + i),
  );
}

test("filter the message history by status and export what it shows", async ({ page }) => {
  const account = await signedInCustomer(page, "historyfilter");
  await seedHistory(account.email, [
    { body: "=cmd|' /C calc'!A0", status: "delivered" },
    { body: "Your parcel is late", status: "failed" },
    { body: "Welcome aboard", status: "delivered" },
  ]);
  await page.goto("/sms/messageHistory");
  await expect(page.getByTestId("message-row")).toHaveCount(3);

  const filters = page.getByRole("search", { name: "Filter messages" });
  await filters.getByLabel("Status").selectOption("failed");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]status=failed/);
  await expect(page.getByTestId("message-row")).toHaveCount(1);
  await expect(page.getByTestId("message-row")).toContainText("Your parcel is late");

  await filters.getByLabel("Status").selectOption("delivered");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]status=delivered/);
  await expect(page.getByTestId("message-row")).toHaveCount(2);

  const downloading = page.waitForEvent("download");
  await filters.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("messages.csv");
  const csv = await readFile((await download.path())!, "utf8");
  const lines = csv.trim().split("\n");
  expect(lines[0]).toMatch(/^Message ID,Direction,Delivery Status,/);
  expect(lines).toHaveLength(3);
  expect(csv).toContain("Welcome aboard");
  // A spreadsheet shows the formula as text.
  expect(csv).toContain(",'=cmd|' /C calc'!A0,");
  expect(csv).not.toContain("Your parcel is late");

  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page.getByTestId("message-row")).toHaveCount(3);
});

test("a bad date in the history's filters is named next to its field", async ({ page }) => {
  await signedInCustomer(page, "historydate");
  await page.goto("/sms/messageHistory?from=2026-02-30");
  await expect(page.getByLabel(/From date/)).toHaveAccessibleDescription(/Enter a date as YYYY-MM-DD/);
  await expect(page.getByText("Correct the filters above to see messages.")).toBeVisible();
});

test("send to a group, then follow its campaign page until every message is delivered", async ({
  page,
  javaScriptEnabled,
}) => {
  const account = await signedInCustomer(page, "campaign");
  await seedAddressBook(account.email, {
    groups: ["Friends"],
    contacts: [
      { name: "Ann Archer", phone: "+12025550131", email: "ann@example.com", groups: ["Friends"] },
      { name: "Ben Baker", phone: "+12025550132", email: "ben@example.com", groups: ["Friends"] },
    ],
  });
  await grantCredits(account.email, 10);
  await page.goto("/sms/accountGroups");
  await groupRow(page, "Friends").getByRole("link", { name: "Send SMS" }).click();
  const send = page.getByRole("region", { name: "Send SMS to the group Friends" });
  await send.getByLabel("Message").fill("See you at the campaign party");
  if (!javaScriptEnabled) await send.getByRole("button", { name: "Check cost" }).click();
  await send.getByRole("button", { name: "Send SMS" }).click();
  await page.getByTestId("group-send-result").getByRole("link", { name: "Follow delivery" }).click();

  await expect(page).toHaveURL(/\/sms\/campaigns\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Campaign #\d+: Friends/);
  await expect(page.getByTestId("campaign-body")).toHaveText("See you at the campaign party");
  await waitForCampaignSummary(page, javaScriptEnabled, "2 of 2 delivered.");
  await expect(page.getByRole("progressbar", { name: /Delivery of campaign/ })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByTestId("recipient-row")).toHaveCount(2);

  await page.getByRole("link", { name: "Back" }).click();
  await expect(page.getByTestId("campaign-row")).toContainText("Friends");
});
