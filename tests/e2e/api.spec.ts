import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { grantCredits } from "#tests/e2e/credits.ts";
import { expect, signedInCustomer, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

const KEY = /^smsgw_live_[0-9A-Za-z]{42}$/;

async function balanceStatus(page: Page, key: string): Promise<number> {
  const response = await page.request.get("/api/v1/balance", { headers: { Authorization: `Bearer ${key}` } });
  return response.status();
}

async function revealKey(page: Page): Promise<string> {
  await page.getByRole("link", { name: "Show Key" }).click();
  await expect(page.getByTestId("api-key")).toHaveText(KEY);
  return (await page.getByTestId("api-key").textContent())!;
}

test("API token: make a key, show and hide it, regenerate it with confirmation; the old key is refused", async ({
  page,
  javaScriptEnabled,
}) => {
  await signUpAndLogin(page, "apikey");
  await page.getByText("Control Panel").click();
  await page.getByRole("link", { name: "API Token (OAuth)" }).click();
  await expect(page).toHaveURL(/\/sms\/apiToken$/);
  await expect(page.getByRole("heading", { level: 1, name: "API Token" })).toBeVisible();
  await expect(page.getByText("You do not have an API key yet.")).toBeVisible();
  await page.getByRole("button", { name: "Create API Key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Your API key is ready." })).toBeVisible();

  // Masked by default; Show Key reveals it without putting it in the address.
  const shown = page.getByTestId("api-key");
  await expect(shown).toContainText("smsgw_live_••••");
  await expect(page.getByTestId("last-used")).toHaveText("Never");
  const oldKey = await revealKey(page);
  expect(page.url()).not.toContain(oldKey);
  await page.getByRole("link", { name: "Hide Key" }).click();
  await expect(shown).toContainText("••••");
  await expect(shown).toHaveText(new RegExp(`${oldKey.slice(-4)}$`));

  expect(await balanceStatus(page, oldKey)).toBe(200);
  await page.reload();
  await expect(page.getByTestId("last-used")).not.toHaveText("Never");

  await page.getByRole("link", { name: "Regenerate Key" }).click();
  if (javaScriptEnabled) {
    const dialog = page.getByRole("dialog", { name: "Regenerate your API key?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("link", { name: "Regenerate Key" }).click();
    // A slow page (a busy machine) may never render the navigation's brief "loading" state: the dialog
    // must still close on the action's answer. Chromium's CPU throttling makes this page that slow.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await dialog.getByRole("button", { name: "Yes, regenerate" }).click();
    await expect(dialog).toBeHidden();
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  } else {
    await expect(page).toHaveURL(/confirm=regenerate/);
    await expect(page.getByRole("heading", { name: "Regenerate your API key?" })).toBeVisible();
    await page.getByRole("button", { name: "Yes, regenerate" }).click();
  }
  await expect(
    page.getByTestId("toast").filter({ hasText: "Your new API key is ready. The old key no longer works." }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/sms\/apiToken$/);
  await expect(shown).toContainText("••••");

  const newKey = await revealKey(page);
  expect(newKey).not.toBe(oldKey);
  expect(await balanceStatus(page, oldKey)).toBe(401);
  expect(await balanceStatus(page, newKey)).toBe(200);

  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).not.toHaveURL(/\/sms\/apiToken/);
});

test("documentation: the API reference's curl examples run as printed against this server", async ({ page }) => {
  // Forty curl processes and as many requests: on a busy machine this one needs more than the usual bound.
  test.slow();
  const account = await signedInCustomer(page, "apidocs");
  await grantCredits(account.email, 8);
  await page.goto("/sms/apiToken");
  await page.getByRole("button", { name: "Create API Key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Your API key is ready." })).toBeVisible();
  const key = await revealKey(page);

  // Something of the reader's own for the examples that take an id: a group with a member, a
  // group send to it (1 credit), a scheduled message and a number on the opt-out list.
  const api = (method: string, path: string, data?: unknown) =>
    page.request.fetch(path, { method, data, headers: { Authorization: `Bearer ${key}` } }).then(async (response) => {
      expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
      return response.json();
    });
  const group = await api("POST", "/api/v1/groups", { name: "Regulars", description: "Come every week" });
  await api("POST", "/api/v1/contacts", {
    name: "Grace Hopper",
    phone: "+1 202 555 0112",
    email: "grace@example.com",
    groupIds: [group.id],
  });
  const groupSend = await api("POST", `/api/v1/groups/${group.id}/messages`, { body: "See you Friday" });
  const scheduled = await api("POST", "/api/v1/messages", {
    to: "+1 202 555 0113",
    body: "Tomorrow",
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const optOut = await api("POST", "/api/v1/opt-outs", { phone: "+1 202 555 0114" });
  // Two webhook endpoints (the delete example takes the oldest, the others the newest) and a test
  // event, so the delivery examples have a delivery to show and redeliver.
  for (const path of ["old", "new"])
    await api("POST", "/api/v1/webhooks", { url: `http://203.0.113.10/${path}`, events: ["message.delivered"] });
  const hooks = await api("GET", "/api/v1/webhooks");
  await api("POST", `/api/v1/webhooks/${hooks.data[0].id}/test`);

  await page.goto("/sms/documentation");
  await expect(page.getByRole("heading", { level: 1, name: "Documentation" })).toBeVisible();
  // The send form stays on the screen above the reference; a message sent there gives the
  // "get one message" example a real id.
  await page.getByLabel("Phone Number").fill("+1 202 555 0111");
  await page.getByLabel("Message").fill("Sent from the documentation page");
  await page.getByRole("button", { name: "Send SMS" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "SMS sent successfully!" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "REST API reference" })).toBeVisible();
  await expect(page.getByTestId("key-export")).not.toContainText(key);
  const endpoints = [
    "POST /api/v1/messages",
    "POST /api/v1/messages/batch",
    "POST /api/v1/messages/quote",
    "GET /api/v1/messages",
    "GET /api/v1/messages/{id}",
    "DELETE /api/v1/messages/{id}",
    "GET /api/v1/messages/{id}/events",
    "GET /api/v1/contacts",
    "POST /api/v1/contacts",
    "GET /api/v1/groups",
    "POST /api/v1/groups",
    "POST /api/v1/groups/{id}/messages",
    "GET /api/v1/group-sends",
    "GET /api/v1/group-sends/{id}",
    "PUT /api/v1/groups/{id}/members/{contactId}",
    "DELETE /api/v1/groups/{id}/members/{contactId}",
    "GET /api/v1/groups/{id}",
    "PATCH /api/v1/groups/{id}",
    "DELETE /api/v1/groups/{id}",
    "GET /api/v1/contacts/{id}",
    "PATCH /api/v1/contacts/{id}",
    "DELETE /api/v1/contacts/{id}",
    "POST /api/v1/schedules",
    "GET /api/v1/schedules",
    "GET /api/v1/schedules/{id}",
    "DELETE /api/v1/schedules/{id}",
    "GET /api/v1/opt-outs",
    "POST /api/v1/opt-outs",
    "DELETE /api/v1/opt-outs/{id}",
    "GET /api/v1/balance",
    "GET /api/v1/webhooks",
    "POST /api/v1/webhooks",
    "GET /api/v1/webhooks/{id}",
    "PATCH /api/v1/webhooks/{id}",
    "DELETE /api/v1/webhooks/{id}",
    "POST /api/v1/webhooks/{id}/rotate-secret",
    "POST /api/v1/webhooks/{id}/test",
    "GET /api/v1/webhooks/{id}/deliveries",
    "POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver",
    "GET /api/v1/openapi.json",
  ];
  for (const endpoint of endpoints) {
    await expect(
      page.getByRole("navigation", { name: "Endpoints" }).getByRole("link", { name: endpoint, exact: true }),
    ).toBeVisible();
  }

  const examples = await page.getByTestId("curl-example").allTextContents();
  expect(examples).toHaveLength(endpoints.length);
  // The examples that take an id use the reader's own.
  expect(examples.join("\n")).toContain(`/api/v1/messages/${scheduled.id}"`);
  expect(examples.join("\n")).toContain(`/api/v1/groups/${group.id}/messages"`);
  expect(examples.join("\n")).toContain(`/api/v1/group-sends/${groupSend.id}"`);
  expect(examples.join("\n")).toContain(`/api/v1/opt-outs/${optOut.id}"`);
  const origin = new URL(page.url()).origin;
  const run = promisify(execFile);
  for (const example of examples) {
    expect(example).toContain(`"${origin}/api/v1/`);
    const { stdout } = await run("bash", ["-c", example], { env: { ...process.env, SMSGW_API_KEY: key } });
    expect(typeof JSON.parse(stdout)).toBe("object");
  }
  // The send example really sent one message and the batch example two, the cancel example cancelled the
  // scheduled one, the create examples made a contact and a group, the group send example sent to Regulars
  // again, and the delete examples then deleted the reader's own newest contact and group (Grace, Regulars).
  expect((await api("GET", `/api/v1/messages/${scheduled.id}`)).status).toBe("cancelled");
  expect((await api("GET", "/api/v1/contacts")).data.map((c: { name: string }) => c.name)).toEqual(["Ada Lovelace"]);
  expect((await api("GET", "/api/v1/groups")).data.map((g: { name: string }) => g.name)).toEqual(["Customers"]);
  await expect.poll(async () => (await api("GET", "/api/v1/balance")).credits).toBe(2);
  await page.goto("/sms/messageHistory");
  await expect(page.getByTestId("message-row").filter({ hasText: "Hello from the SMS Gateway API" })).toHaveCount(2);
  await expect(page.getByTestId("message-row").filter({ hasText: "Our store opens at 9 tomorrow" })).toHaveCount(1);
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 2 credits");

  await page.goto("/sms/documentation");
  await page.getByRole("link", { name: "Show my key in the example" }).click();
  await expect(page.getByTestId("key-export")).toHaveText(`export SMSGW_API_KEY='${key}'`);
  await page.getByRole("link", { name: "Hide my key" }).click();
  await expect(page.getByTestId("key-export")).not.toContainText(key);
});
