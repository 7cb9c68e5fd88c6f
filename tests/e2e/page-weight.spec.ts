import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSize, HOME_BUDGET_KB, kB, pagesJs, sizeReport, STRIPE_MARKER } from "../../scripts/page-js.ts";
import { expect, test } from "./fixtures.ts";

// What the built app (the one the webServer serves) makes each page download; see docs/decisions/016.
const clientDir = resolve("build/client");

test("the home page downloads, compressed, only the JavaScript the report counts, within its budget", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "Without JavaScript nothing runs; the budget is the js project's.");
  const scripts: { url: string; gzipBytes: number; sentBytes: number; encoding: string | undefined }[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.push({
      url: new URL(response.url()).pathname,
      gzipBytes: gzipSize(await response.body()),
      sentBytes: (await response.request().sizes()).responseBodySize,
      encoding: response.headers()["content-encoding"],
    });
  });
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.getByRole("heading", { level: 1, name: "Choose Your SMS Pricing Plan" })).toBeVisible();

  const home = pagesJs(clientDir).find((p) => p.path === "/");
  expect(home).toBeDefined();
  const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
  const sent = scripts.reduce((sum, s) => sum + s.sentBytes, 0);
  testInfo.annotations.push({ type: "home JS", description: `${kB(total)} kB gzip, ${kB(sent)} kB as sent (brotli), ${scripts.length} files` });
  console.log(`${sizeReport(pagesJs(clientDir))}\nAs the browser received it: ${kB(sent)} kB (brotli).`);

  expect(scripts.map((s) => s.url).sort()).toEqual(home!.files.map((f) => f.url).sort());
  for (const script of scripts) expect(script.encoding, script.url).toMatch(/^(br|gzip)$/);
  expect(scripts.filter((s) => s.url.includes("stripe"))).toEqual([]);
  expect(total / 1000).toBeLessThanOrEqual(HOME_BUDGET_KB);
});

test("no page loads Stripe's script but the payment page, and that one only on demand", async ({}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "A build check: once is enough.");
  const pages = pagesJs(clientDir);
  expect(pages.filter((p) => p.loadsStripe).map((p) => p.path)).toEqual([]);
  // Not vacuous: the build has Stripe's loader, in the chunk the payment page imports when it needs it.
  const assets = join(clientDir, "assets");
  const stripeChunks = readdirSync(assets).filter((name) => name.endsWith(".js") && readFileSync(join(assets, name), "utf8").includes(STRIPE_MARKER));
  expect(stripeChunks).toHaveLength(1);
  const payment = pages.find((p) => p.path === "/payment");
  const paymentModule = readFileSync(join(clientDir, payment!.files.find((f) => /\/payment-[\w-]+\.js$/.test(f.url))!.url), "utf8");
  const dynamicImports = [...paymentModule.matchAll(/import\(["'`]\.\/([\w.-]+)["'`]\)/g)].map((m) => m[1]);
  expect(dynamicImports).toContain(stripeChunks[0]);
});
