import { expect, test } from "#tests/e2e/fixtures.ts";

const ARTICLE_SLUGS = [
  "sms-api-services-how-they-work",
  "why-still-important-to-send-sms",
  "sms-api-features-benefits-implementation",
  "promoting-business-with-sms-api-marketing",
  "essential-sms-compliance-policy-templates-sms-api",
  "sms-api-how-it-works-best-practices",
  "powerful-tactics-engaging-leads-sms-marketing",
  "power-of-sms-api-enhancing-communication",
  "hiring-smarter",
  "appointment-confirmation",
  "emerging-trends-forecasts",
  "enhancing-patient-care",
  "smart-ways-small-businesses",
];

test("read the guide, toggle Quick Links, follow a quick link and come back", async ({ page }) => {
  await page.goto("/sms/blog");
  await expect(page).toHaveTitle("The Ultimate Guide to SMS API Services | SMS Gateway Blog");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /how messages travel/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Ultimate Guide to SMS API Services");

  // In-page anchors from the table of contents.
  const contents = page.getByRole("navigation", { name: "Contents" });
  await contents.getByRole("link", { name: "Encoding, segments and what a message costs" }).click();
  await expect(page).toHaveURL(/\/sms\/blog#encoding-and-segments$/);
  await expect(page.locator("#encoding-and-segments")).toBeInViewport();

  // Quick Links start open and list every article once.
  const panel = page.getByRole("complementary", { name: "Quick Links" });
  await expect(panel).toBeVisible();
  const hrefs = await panel.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(["/sms/blog", ...ARTICLE_SLUGS.map((s) => `/blog/${s}`)]);
  await expect(panel.getByRole("link", { name: "The Ultimate Guide to SMS API Services" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // The toggle is one real control whose name follows its state, with or without JavaScript.
  await expect(page.getByRole("checkbox", { name: "Close Quick Links" })).toBeChecked();
  await page.getByText("Close Quick Links", { exact: true }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole("checkbox", { name: "Open Quick Links" })).not.toBeChecked();
  await page.getByText("Open Quick Links", { exact: true }).click();
  await expect(panel).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Close Quick Links" })).toBeChecked();

  // Keyboard: the checkbox itself takes Space.
  await page.getByRole("checkbox", { name: "Close Quick Links" }).focus();
  await page.keyboard.press("Space");
  await expect(panel).toBeHidden();
  await page.keyboard.press("Space");
  await expect(panel).toBeVisible();

  await panel.getByRole("link", { name: "Appointment Confirmation by SMS" }).click();
  await expect(page).toHaveURL(/\/blog\/appointment-confirmation$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Appointment Confirmation by SMS");
  await expect(page).toHaveTitle("Appointment Confirmation by SMS | SMS Gateway Blog");
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("link", { name: "Appointment Confirmation by SMS" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // The article ends with registration, in a new tab.
  const register = page.getByRole("link", { name: /Create your free account/ });
  await expect(register).toHaveAttribute("href", "/register");
  await expect(register).toHaveAttribute("target", "_blank");
  await expect(register).toHaveAttribute("rel", /noopener/);

  await page.getByRole("link", { name: "Back", exact: true }).click();
  await expect(page).toHaveURL(/\/sms\/blog(#encoding-and-segments)?$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Ultimate Guide to SMS API Services");
});

test("on a phone the Quick Links slide over the article and a backdrop click closes them", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/blog/hiring-smarter");
  const panel = page.getByRole("complementary", { name: "Quick Links" });
  await expect(panel).toBeVisible();
  await expect(panel).toHaveCSS("animation-duration", "0.3s");
  await expect(panel).toHaveCSS("position", "fixed");
  const backdrop = page.getByTestId("quick-links-backdrop");
  await expect(backdrop).toBeVisible();
  await backdrop.click({ position: { x: 20, y: 400 } });
  await expect(panel).toBeHidden();
  await expect(backdrop).toBeHidden();
  await expect(page.getByRole("checkbox", { name: "Open Quick Links" })).not.toBeChecked();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hiring Smarter with SMS");
});

test("every article is served, slugs match whatever their case, and the sitemap lists them", async ({
  page,
  request,
}) => {
  for (const slug of ARTICLE_SLUGS) {
    const response = await request.get(`/blog/${slug}`);
    expect(response.status(), slug).toBe(200);
  }
  await page.goto("/blog/appointment-Confirmation");
  await expect(page).toHaveURL(/\/blog\/appointment-confirmation$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Appointment Confirmation by SMS");

  expect((await request.get("/blog/no-such-article")).status()).toBe(404);

  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  const xml = await sitemap.text();
  for (const path of [
    "/sms/blog",
    "/sms/contact",
    "/sms/termsandconditions",
    ...ARTICLE_SLUGS.map((s) => `/blog/${s}`),
  ]) {
    expect(xml, path).toContain(`${path}</loc>`);
  }
});

test("the terms and conditions show the effective date, nine sections and the contact details", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Terms and Conditions" }).click();
  await expect(page).toHaveURL(/\/sms\/termsandconditions$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms and Conditions");
  await expect(page.getByText("Effective date: 2025-03-13")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText([
    "1. Introduction",
    "2. Use of Services",
    "3. Account Registration",
    "4. Message Delivery",
    "5. Fees and Payments",
    "6. Privacy",
    "7. Limitation of Liability",
    "8. Changes to These Terms",
    "9. Contact Us",
  ]);
  await expect(page.getByText("You must be at least 18 years old to use the Services.")).toBeVisible();
  await expect(page.getByRole("link", { name: "sales@example.com" })).toHaveAttribute(
    "href",
    "mailto:sales@example.com",
  );
});
