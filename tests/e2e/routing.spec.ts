// Upstreams and routes through the screens, with and without JavaScript: an admin adds an SMPP
// upstream (its password never comes back), a simulated one told to fail and to recover, a route
// with costs, and asks the dry run where a number goes. Each form is first sent with a mistake,
// answered beside its field. Names and the prefix are the run's own: both projects share one server.
import { randomUUID } from "node:crypto";
import { demoAdmin, expect, signInByRequest, test } from "#tests/e2e/fixtures.ts";

test("an admin adds upstreams, makes a simulated one fail, routes a prefix through them and dry-runs a number", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  const run = randomUUID().slice(0, 6);
  const carrier = `Carrier ${run}`;
  const simulator = `Sim ${run}`;
  const password = `pw${run}`.slice(0, 9);
  const digits = String(Math.floor(Math.random() * 900) + 100);
  await signInByRequest(page, demoAdmin);

  await page.goto("/admin/upstreams");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Upstreams");
  await expect(page.getByTestId("upstream-row").first()).toContainText("default");
  await expect(page.getByTestId("upstream-row").first()).toContainText("read-only");
  // Test mode's environment upstream is the simulator: no binds to show.
  await expect(page.getByTestId("upstream-row").first()).toContainText("None (simulated)");

  await page.getByLabel("Name").fill(carrier);
  await page.getByLabel("SMSC address").fill("smpp://gateway:pw@smsc.carrier.test:2775");
  await page.getByLabel("System id").fill("gateway");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Add upstream" }).click();
  await expect(page.getByText(/without the system id and password/)).toBeVisible();
  // The page the server sends back never holds the password (with JavaScript the browser keeps what was typed).
  if (!javaScriptEnabled) await expect(page.getByLabel("Password")).toHaveValue("");
  await page.getByLabel("SMSC address").fill("smpp://smsc.carrier.test:2775");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Add upstream" }).click();
  const carrierRow = page.getByTestId("upstream-row").filter({ hasText: carrier });
  await expect(carrierRow).toContainText("smpp://smsc.carrier.test:2775 as gateway");
  expect(await page.content()).not.toContain(password);

  await carrierRow.getByRole("link", { name: `Edit ${carrier}` }).click();
  await expect(page.getByRole("heading", { name: `Edit ${carrier}` })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByText("Stored sealed. Leave blank to keep it.")).toBeVisible();
  await page.getByRole("button", { name: "Save upstream" }).click();
  await expect(page.getByRole("heading", { name: "Add an upstream" })).toBeVisible();

  await page.getByLabel("Name").fill(simulator);
  await page.getByLabel("Kind").selectOption("simulator");
  await page.getByRole("button", { name: "Add upstream" }).click();
  const simulatorRow = page.getByTestId("upstream-row").filter({ hasText: simulator });
  await simulatorRow.getByRole("button", { name: `Make it fail ${simulator}` }).click();
  await expect(simulatorRow).toContainText("Failing");
  await simulatorRow.getByRole("button", { name: `Stop failing ${simulator}` }).click();
  await expect(simulatorRow).not.toContainText("Failing");

  await page.goto("/admin/routes");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Routes");
  await page.getByLabel("Destination prefix").fill("+49 1512 x");
  await page.getByLabel("Upstream 1", { exact: true }).selectOption({ label: carrier });
  await page.getByRole("button", { name: "Add route" }).click();
  await expect(page.getByText(/Write the start of an E\.164 number/)).toBeVisible();
  await page.getByLabel("Destination prefix").fill(`+49 1512 ${digits}`);
  await page.getByLabel("Upstream 1", { exact: true }).selectOption({ label: carrier });
  await page.getByLabel("Cost per segment 1").fill("0.0042");
  await page.getByLabel("Upstream 2", { exact: true }).selectOption({ label: simulator });
  await page.getByLabel("Cost per segment 2").fill("0.005");
  await page.getByRole("button", { name: "Add route" }).click();
  const routeRow = page.getByTestId("route-row").filter({ hasText: `+491512${digits}` });
  await expect(routeRow).toContainText(`${carrier} $0.0042 per segment`);
  await expect(page.getByLabel("Destination prefix")).toHaveValue("");
  await expect(page.getByLabel("Cost per segment 1")).toHaveValue("");

  await page.getByLabel("Where would a message to this number go?").fill(`+49 1512 ${digits} 6789`);
  await page.getByRole("button", { name: "Check" }).click();
  const answer = page.getByTestId("dry-run");
  await expect(answer).toContainText(`+491512${digits}6789`);
  await expect(answer).toContainText(`+491512${digits}`);
  await expect(answer.getByRole("listitem")).toHaveText([
    `${carrier}: $0.0042 per segment`,
    `${simulator}: $0.005 per segment`,
  ]);
  // The price is the price list's (1 credit unless an admin priced +49); the margin is known once credits have sold.
  await expect(answer).toContainText(/\d+ credits? per segment/);
  await expect(page.getByTestId("dry-run-margin")).toHaveText(
    new RegExp(`^(Unknown: no credits sold yet.*|-?\\$[\\d.]+ per segment through ${carrier})$`),
  );

  await routeRow.getByRole("button", { name: `Delete route +491512${digits}` }).click();
  await expect(page.getByTestId("route-row").filter({ hasText: `+491512${digits}` })).toHaveCount(0);
  await page.goto("/admin/upstreams");
  for (const name of [carrier, simulator]) {
    const row = page.getByTestId("upstream-row").filter({ hasText: name });
    await row.getByRole("button", { name: `Disable ${name}` }).click();
    await expect(row).toContainText("Disabled");
  }
});
