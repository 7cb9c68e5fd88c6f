// Webhooks through the screens, with and without JavaScript: add an endpoint (a refused URL first,
// answered beside its field), see its secret once, send a test event to a real receiver on
// loopback that verifies the signature, and find it in the delivery log.
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";
import { WebhookReceiver } from "#tests/support/webhook-receiver.ts";

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
test.afterAll(async () => {
  await receiver?.stop();
});

test("a customer adds a webhook endpoint, sees its secret once and sends it a test event", async ({ page }) => {
  test.slow();
  await signedInCustomer(page, "webhooks");
  await page.goto("/sms/webhooks");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");

  await page.getByLabel("URL", { exact: true }).fill("ftp://example.com/hook");
  await page.getByLabel(/message\.delivered/).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("The URL must start with https:// or http://")).toBeVisible();

  const url = receiver.url(`/e2e-${Date.now()}`);
  await page.getByLabel("URL", { exact: true }).fill(url);
  await page.getByLabel(/message\.delivered/).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhook deliveries");
  const secret = await page.getByTestId("webhook-secret").inputValue();
  expect(secret).toMatch(/^whsec_/);
  receiver.secret = secret;

  await page.goto("/sms/webhooks");
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  await page.getByRole("link", { name: url }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhook deliveries");
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event queued")).toBeVisible();

  await expect
    .poll(() => receiver.received.filter((r) => r.body.type === "webhook.test" && r.verified).length, {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("delivery-row").first().textContent();
      },
      { timeout: 20_000 },
    )
    .toMatch(/webhook\.test.*200/s);

  // Redeliver: the same event (same webhook-id) reaches the receiver again.
  const eventId = /evt_[0-9A-HJKMNP-TV-Z]{26}/.exec(
    (await page.getByTestId("delivery-row").first().textContent()) ?? "",
  )![0];
  await page.getByRole("button", { name: `Redeliver ${eventId}` }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Sent again" })).toBeAttached();
  await expect
    .poll(() => receiver.received.filter((r) => r.id === eventId && r.verified).length, { timeout: 20_000 })
    .toBe(2);

  // Turned off, it is sent nothing: each button says so where it is.
  await page.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByRole("button", { name: "Turn on" })).toBeVisible();
  const off = "This endpoint is turned off: turn it on before sending it a test event or a redelivery.";
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("alert").filter({ hasText: off })).toBeVisible();
  await page.getByRole("button", { name: `Redeliver ${eventId}` }).click();
  await expect(page.getByRole("alert").filter({ hasText: off })).toBeVisible();
  expect(receiver.received.filter((r) => r.id === eventId)).toHaveLength(2);
});
