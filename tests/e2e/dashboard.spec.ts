// The customer's dashboard and the admin overview, with and without JavaScript: the chart, its
// table, switching the period in the URL, and who may open /admin.
import { getSqlite } from "#app/db/client.server.ts";
import { addToRollup } from "#app/db/rollup-counts.server.ts";
import { type MessageStatus, rollupOutcome } from "#app/modules/messaging/message-status.ts";
import { serverUser } from "#tests/e2e/credits.ts";
import { demoAdmin, expect, signedInCustomer, signInByRequest, test } from "#tests/e2e/fixtures.ts";

/** Messages sent just now, straight into the server's database, counted in the rollup as the send path does. */
async function messagesSentNow(email: string, statuses: string[]) {
  const user = await serverUser(email);
  const insert = getSqlite().prepare(
    `insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, created_at, updated_at)
     values (?, '+12025550180', 'Dashboard journey', 'GSM-7', 1, 1, ?, ?, ?)`,
  );
  const now = Date.now();
  for (const status of statuses) insert.run(user.id, status, now, now);
  await addToRollup(
    statuses.map((status) => ({ userId: user.id, at: now, [rollupOutcome(status as MessageStatus)]: 1 })),
  );
}

test("a customer sees messages per day, their table, and switches the period", async ({ page, javaScriptEnabled }) => {
  test.slow();
  const customer = await signedInCustomer(page, "dashboard");
  await messagesSentNow(customer.email, ["delivered", "delivered", "delivered", "undelivered", "queued"]);

  await page.goto("/sms/sendSms");
  await page.getByText("Control Panel").click();
  await page.getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
  await expect(page.getByTestId("figure-sent")).toHaveText("5");
  await expect(page.getByTestId("figure-delivery-rate")).toHaveText("75.0 %");

  const chart = page.getByRole("img", { name: "Messages per day" });
  await expect(chart).toBeVisible();
  await expect(page.getByTestId("chart-bar")).toHaveCount(7);
  await expect(
    page.getByText(/^5 messages sent from .*: 3 delivered, 1 failed, 1 pending; 0 received\./),
  ).toBeVisible();

  await page.getByText("Show the numbers as a table").click();
  const today = page.getByTestId("chart-table").getByRole("row").last();
  await expect(today.getByRole("cell")).toHaveText(["3", "1", "1", "0"]);

  if (javaScriptEnabled) {
    await page.getByTestId("chart-bar").last().hover();
    await expect(page.getByTestId("chart-tooltip")).toContainText("Delivered: 3");
  } else {
    // Without JavaScript the bar's own <title> is its tooltip.
    await expect(page.getByTestId("chart-bar").last().locator("title")).toHaveText(
      /: 3 delivered, 1 failed, 1 pending/,
    );
  }

  await page.getByLabel("Period").selectOption("30");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/sms\/dashboard\?days=30$/);
  await expect(page.getByTestId("chart-bar")).toHaveCount(30);
  await expect(page.getByLabel("Period")).toHaveValue("30");
  await expect(page.getByTestId("figure-sent")).toHaveText("5");
});

test("an admin opens the overview; a customer is refused it", async ({ page }) => {
  test.slow();
  const customer = await signedInCustomer(page, "busy");
  // More than any demo account sends, so it heads the list.
  await messagesSentNow(customer.email, Array<string>(500).fill("delivered"));
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/accessDenied$/);

  await page.context().clearCookies();
  await signInByRequest(page, demoAdmin);
  await page.goto("/sms/sendSms");
  await page.getByText("Admin", { exact: true }).click();
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin overview");
  for (const name of ["Revenue per day", "Credits sold per day", "Messages per day"]) {
    await expect(page.getByRole("img", { name })).toBeVisible();
  }
  await expect(page.getByTestId("database-size")).toContainText(/\d+\.\d MB/);
  await expect(page.getByTestId("queue-depths")).toBeVisible();
  // The existing admin screens stay one click away.
  await expect(
    page.getByRole("navigation", { name: "Admin screens" }).getByRole("link", { name: "Accounts & Credits" }),
  ).toBeVisible();

  await page.getByLabel("Period").selectOption("90");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/admin\?days=90$/);
  const busy = page.getByTestId("busiest-row").filter({ hasText: customer.email });
  await expect(busy).toContainText("500");
  await busy.getByRole("link", { name: customer.fullName }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(customer.fullName);
});
