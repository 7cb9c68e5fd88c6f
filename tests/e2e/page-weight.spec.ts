import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "@playwright/test";
import {
  gzipSize,
  HOME_BUDGET_KB,
  HYDRATED_HOME_BUDGET_KB,
  kB,
  pagesJs,
  sizeReport,
  STRIPE_MARKER,
} from "../../scripts/page-js.ts";
import { expect, signedInCustomer, test } from "#tests/e2e/fixtures.ts";

// What the built app (the one the webServer serves) makes each page download; see docs/decisions/016.
const clientDir = resolve("build/client");

type FetchedScript = { url: string; gzipBytes: number; sentBytes: number; encoding: string | undefined };

/** Every script the page fetches from now on, as Chromium received it. */
function recordScripts(page: Page): FetchedScript[] {
  const scripts: FetchedScript[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.push({
      url: new URL(response.url()).pathname,
      gzipBytes: gzipSize(await response.body()),
      sentBytes: (await response.request().sizes()).responseBodySize,
      encoding: response.headers()["content-encoding"],
    });
  });
  return scripts;
}

const total = (scripts: FetchedScript[], size: "gzipBytes" | "sentBytes") =>
  scripts.reduce((sum, s) => sum + s[size], 0);

test("a visit to the home page downloads plain HTML and one small script, within the 100 kB budget", async ({
  page,
}, testInfo) => {
  const scripts = recordScripts(page);
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.getByRole("heading", { level: 1, name: "Choose Your SMS Pricing Plan" })).toBeVisible();
  testInfo.annotations.push({
    type: "home JS",
    description: `${kB(total(scripts, "gzipBytes"))} kB gzip, ${scripts.length} file(s)`,
  });

  expect(scripts.map((s) => s.url)).toEqual(["/enhance/auto-submit.js"]);
  expect(total(scripts, "gzipBytes") / 1000).toBeLessThanOrEqual(HOME_BUDGET_KB);
  // What that script keeps: a select applies the filters at once.
  await page.getByLabel("Category").selectOption("beverages");
  await expect(page).toHaveURL(/category=beverages/);
});

test("with a toast to show, the home page runs React: exactly the JavaScript the report counts, within its budget", async ({
  browser,
  page,
}, testInfo) => {
  await signedInCustomer(page, "weight");
  await page.goto("/?q=1000");
  await page.getByRole("link", { name: "View details of 1,000 SMS Credits" }).click();
  await expect(page.getByRole("button", { name: "Add to Cart" })).toBeVisible();
  // Added through the form's action over HTTP, so the home page and its toast come as a full page load.
  const added = await page.request.post(page.url(), { form: { quantity: "1" }, maxRedirects: 0 });
  expect(added.status()).toBe(302);
  // A new browser context with the same cookies: nothing cached, every script counted as fetched.
  const fresh = await browser.newContext({
    storageState: await page.context().storageState(),
    baseURL: testInfo.project.use.baseURL,
  });
  const home = await fresh.newPage();
  const scripts = recordScripts(home);
  await home.goto("/", { waitUntil: "networkidle" });
  await expect(home.getByTestId("toast")).toContainText("Item added to cart successfully!");
  // The toast's close button exists only once React runs on the page.
  await expect(home.getByTestId("toast").getByRole("button", { name: "Close notification" })).toBeVisible();
  await fresh.close();

  const report = pagesJs(clientDir).find((p) => p.path === "/");
  expect(report).toBeDefined();
  testInfo.annotations.push({
    type: "hydrated home JS",
    description: `${kB(total(scripts, "gzipBytes"))} kB gzip, ${kB(total(scripts, "sentBytes"))} kB as sent (brotli), ${scripts.length} files`,
  });
  console.log(
    `${sizeReport(pagesJs(clientDir))}\nAs the browser received it: ${kB(total(scripts, "sentBytes"))} kB (brotli).`,
  );

  expect(scripts.map((s) => s.url).sort()).toEqual(report!.files.map((f) => f.url).sort());
  for (const script of scripts) expect(script.encoding, script.url).toMatch(/^(br|gzip)$/);
  expect(scripts.filter((s) => s.url.includes("stripe"))).toEqual([]);
  expect(total(scripts, "gzipBytes") / 1000).toBeLessThanOrEqual(HYDRATED_HOME_BUDGET_KB);
});

test("no page loads Stripe's script but the payment page, and that one only on demand", async () => {
  const pages = pagesJs(clientDir);
  expect(pages.filter((p) => p.loadsStripe).map((p) => p.path)).toEqual([]);
  // Not vacuous: the build has Stripe's loader, in the chunk the payment page imports when it needs it.
  const assets = join(clientDir, "assets");
  const stripeChunks = readdirSync(assets).filter(
    (name) => name.endsWith(".js") && readFileSync(join(assets, name), "utf8").includes(STRIPE_MARKER),
  );
  expect(stripeChunks).toHaveLength(1);
  const payment = pages.find((p) => p.path === "/payment");
  const paymentModule = readFileSync(
    join(clientDir, payment!.files.find((f) => /\/payment-[\w-]+\.js$/.test(f.url))!.url),
    "utf8",
  );
  const dynamicImports = [...paymentModule.matchAll(/import\(["'`]\.\/([\w.-]+)["'`]\)/g)].map((m) => m[1]);
  expect(dynamicImports).toContain(stripeChunks[0]);
});
