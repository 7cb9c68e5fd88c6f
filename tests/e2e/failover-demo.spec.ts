// The test-mode failover demo, end to end, with and without JavaScript: an admin routes a destination
// through two simulated upstreams and makes the first fail; a customer's message to it is passed on
// by the first, accepted by the second and delivered, as its journey shows. The upstreams and the
// prefix (on Norfolk Island, +672 3, which no other spec writes to) are the run's own: both projects
// share one server, and a route changes where every message to its prefix goes while it exists.
import { randomUUID } from "node:crypto";
import { grantCredits } from "#tests/e2e/credits.ts";
import { demoAdmin, expect, signInByRequest, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

test("a message to a route whose first upstream fails is passed to the next one, accepted there and delivered", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  const run = randomUUID().slice(0, 6);
  const [first, second] = [`Simulator A ${run}`, `Simulator B ${run}`];
  // One digit per project and two drawn: the two projects' routes never share a prefix.
  const prefix = `+672 35${javaScriptEnabled ? 1 : 2}${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
  const number = `${prefix}7`;
  const e164 = number.replaceAll(" ", "");
  await signInByRequest(page, demoAdmin);

  const rowOf = (name: string) => page.getByTestId("upstream-row").filter({ hasText: name });
  const [firstRow, secondRow] = [rowOf(first), rowOf(second)];
  /** Enables or disables both upstreams on the Upstreams screen; each then offers the other. */
  const switchBoth = async (action: "Enable" | "Disable", then: "Enable" | "Disable") => {
    await page.goto("/admin/upstreams");
    for (const name of [first, second]) {
      await rowOf(name)
        .getByRole("button", { name: `${action} ${name}` })
        .click();
      await expect(rowOf(name).getByRole("button", { name: `${then} ${name}` })).toBeVisible();
    }
  };
  // Created disabled and told to fail before it is enabled: the worker never sees the first one working.
  await page.goto("/admin/upstreams");
  for (const name of [first, second]) {
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Kind").selectOption("simulator");
    await page.getByLabel("Enabled: routes send through it").uncheck();
    await page.getByRole("button", { name: "Add upstream" }).click();
    await expect(rowOf(name)).toContainText("Disabled");
  }
  await firstRow.getByRole("button", { name: `Make it fail ${first}` }).click();
  await expect(firstRow).toContainText("Failing");

  await page.goto("/admin/routes");
  await page.getByLabel("Destination prefix").fill(prefix);
  await page.getByLabel("Upstream 1", { exact: true }).selectOption({ label: `${first} (disabled)` });
  await page.getByLabel("Upstream 2", { exact: true }).selectOption({ label: `${second} (disabled)` });
  await page.getByRole("button", { name: "Add route" }).click();
  const routeRow = page.getByTestId("route-row").filter({ hasText: prefix.replaceAll(" ", "") });
  await expect(routeRow).toContainText(first);

  await switchBoth("Enable", "Disable");
  // The worker reads the upstreams every 5 s: its heartbeat then reports both, the first already failing.
  await expect(async () => {
    await page.reload();
    await expect(firstRow).toContainText("1 bind up", { timeout: 500 });
    await expect(secondRow).toContainText("1 bind up", { timeout: 500 });
  }).toPass({ timeout: 60_000 });

  await page.context().clearCookies();
  const customer = await signUpAndLogin(page, "failover");
  await grantCredits(customer.email, 2);
  await page.reload();
  await page.getByLabel("Phone Number").fill(number);
  await page.getByLabel("Message").fill(`Failover ${run}`);
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByTestId("toast")).toContainText("SMS sent successfully!");

  await page.getByRole("link", { name: "Message History" }).first().click();
  await page
    .getByTestId("message-row")
    .filter({ hasText: e164 })
    .getByRole("link", { name: /its journey/ })
    .click();
  await expect(page).toHaveURL(/\/sms\/messages\/\d+$/);
  const events = page.getByTestId("journey-event");
  await expect(async () => {
    await page.reload();
    await expect(events.filter({ hasText: "Delivery receipt" })).toContainText("stat DELIVRD", { timeout: 500 });
  }).toPass({ timeout: 60_000 });
  await expect(events.filter({ hasText: "passed to the next one" })).toContainText(`Upstream ${first}`);
  await expect(events.filter({ hasText: "Accepted by the SMSC" })).toContainText(`Upstream ${second}`);
  await expect(events.filter({ hasText: `Upstream ${second}` })).toHaveCount(1);

  // The route and the upstreams go, so that nothing else is sent through them.
  await page.context().clearCookies();
  await signInByRequest(page, demoAdmin);
  await page.goto("/admin/routes");
  await routeRow.getByRole("button", { name: `Delete route ${prefix.replaceAll(" ", "")}` }).click();
  await expect(routeRow).toHaveCount(0);
  await switchBoth("Disable", "Enable");
});
