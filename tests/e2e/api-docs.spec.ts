import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

const LANGUAGES = [
  { id: "curl", label: "curl", marker: 'curl -sS --fail-with-body -X POST "' },
  { id: "node", label: "Node.js", marker: 'method: "POST"' },
  { id: "python", label: "Python", marker: "requests.post(" },
  { id: "php", label: "PHP", marker: "CURLOPT_CUSTOMREQUEST => 'POST'" },
];

test("a visitor reads the API reference without signing in: POST /api/v1/messages in four languages, the webhooks", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);

  await page
    .getByRole("navigation", { name: "Contents" })
    .getByRole("link", { name: "POST /api/v1/messages", exact: true })
    .click();
  await expect(page).toHaveURL(/#sendMessage$/);
  const send = page.locator("#sendMessage").locator("..");
  await expect(send.getByRole("heading", { name: "POST /api/v1/messages" })).toBeVisible();
  const examples = send.getByTestId("code-example");
  await expect(examples).toHaveCount(4);
  for (const [i, language] of LANGUAGES.entries()) {
    await expect(examples.nth(i)).toHaveAttribute("data-language", language.id);
    await expect(examples.nth(i)).toContainText(language.marker);
    await expect(examples.nth(i)).toContainText("/api/v1/messages");
    await expect(examples.nth(i)).toContainText("YOUR_API_KEY");
  }

  if (javaScriptEnabled) {
    // Tabs: one language at a time, the same everywhere on the page, remembered for the next visit.
    const tabs = send.getByRole("tab");
    await expect(tabs).toHaveText(LANGUAGES.map((l) => l.label));
    await expect(examples.nth(0)).toBeVisible();
    await expect(examples.nth(2)).toBeHidden();
    await send.getByRole("tab", { name: "Python" }).click();
    await expect(examples.nth(2)).toBeVisible();
    await expect(examples.nth(0)).toBeHidden();
    await page.reload();
    const sendAgain = page.locator("#sendMessage").locator("..");
    await expect(sendAgain.getByRole("tab", { name: "Python" })).toHaveAttribute("aria-selected", "true");
    await expect(sendAgain.getByTestId("code-example").nth(2)).toBeVisible();
  } else {
    // Without JavaScript every language is there, one under the other.
    for (const language of LANGUAGES) await expect(send.getByRole("heading", { name: language.label })).toBeVisible();
    for (let i = 0; i < 4; i++) await expect(examples.nth(i)).toBeVisible();
  }

  await page
    .getByRole("navigation", { name: "Contents" })
    .getByRole("link", { name: "Verifying webhook signatures" })
    .click();
  await expect(page.getByRole("heading", { level: 3, name: "Verifying webhook signatures" })).toBeVisible();
  await expect(page.getByText("Every retry has the same webhook-id")).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "message.delivered" })).toBeAttached();
});

test("a signed-in customer goes from the Documentation screen to the reference and puts their own key in the examples", async ({
  page,
}) => {
  await signedInCustomer(page, "apidocs-link");
  await page.goto("/sms/apiToken");
  await page.getByRole("button", { name: "Create API Key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Your API key is ready." })).toBeVisible();

  await page.goto("/sms/documentation");
  await page.getByRole("link", { name: "public API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  const firstExample = page.getByTestId("code-example").first();
  await expect(firstExample).toContainText("YOUR_API_KEY");

  // Signed in moments ago: the key is shown without asking for the password again.
  await page.getByRole("link", { name: "Show my key in the examples" }).click();
  await expect(page.getByTestId("code-example").first()).toContainText(/Bearer smsgw_live_[0-9A-Za-z]{42}/);
  await page.getByRole("link", { name: "Hide my key" }).click();
  await expect(page.getByTestId("code-example").first()).toContainText("YOUR_API_KEY");
});
