// `npm start` as a self-hosting operator runs it on an empty database: production, a real SMSC
// (SMS_TRANSPORT=smpp, the loopback SMSC here), no Stripe keys. Its own server, DATA_DIR and port.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestSmsc } from "#tests/support/smpp-server.ts";
import { portBelowEphemeral } from "#tests/support/ports.ts";
import { waitFor } from "#tests/support/wait.ts";
import { demoAdmin, expect, newAccount, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

const port = portBelowEphemeral("productionStart");
const baseURL = `http://localhost:${port}`;
test.use({ baseURL });
// Each journey signs up (Argon2) and walks several pages on a machine other tests keep busy.
test.describe.configure({ mode: "serial", timeout: 120_000 });

let smsc: TestSmsc;
let app: ChildProcess;
let dataDir: string;
let output = "";
let startEnv: NodeJS.ProcessEnv;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smsc = await TestSmsc.start();
  dataDir = mkdtempSync(join(tmpdir(), "smsgw-prod-start-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    REDIS_URL: "",
    SESSION_SECRET: "prod-start-session-secret-32-characters",
    SMS_TRANSPORT: "smpp",
    SMPP_URL: smsc.url(),
    LOG_LEVEL: "info",
  };
  for (const name of [
    "SEED_DEMO",
    "ALLOW_TEST_PAYMENTS",
    "ADMIN_EMAIL",
    "ADMIN_PASSWORD",
    "STRIPE_SECRET_KEY",
    "STRIPE_PUBLISHABLE_KEY",
    "STRIPE_WEBHOOK_SECRET",
  ])
    delete env[name];
  startEnv = env;
  app = spawn(process.execPath, ["scripts/run.mjs", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [app.stdout!, app.stderr!]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => output.includes("SMS Gateway is up") || app.exitCode !== null, {
    timeout: 170_000,
    interval: 100,
    what: "the production start",
  });
  if (app.exitCode !== null) throw new Error(`start exited:\n${output}`);
});

test.afterAll(async () => {
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    await exited;
  }
  await smsc?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const setupLink = () => new RegExp(`${baseURL}/setup/[A-Za-z0-9_-]{43}`).exec(output)?.[0];

test("prints a one-time setup link and never a password; no demo account exists", async ({ page }) => {
  await waitFor(setupLink, { what: "the setup link in the start's output" });
  expect(output).not.toMatch(/admin12345|demo12345|password/i);
  expect(output).not.toContain("demo accounts created");

  await page.goto("/login");
  await page.getByLabel("Email").fill(demoAdmin.email);
  await page.getByLabel("Password").fill(demoAdmin.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("nothing runs in test mode: no banner for customers, and the shop says card payment is not available", async ({
  page,
}) => {
  const testMode = page.getByRole("region", { name: "Test mode" });
  const unavailable = page.getByTestId("card-payment-unavailable");
  // The page as the server sends it, whatever JavaScript does later.
  expect(await (await page.request.get("/")).text()).not.toContain("Test mode");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(testMode).toHaveCount(0);
  await expect(unavailable).toContainText("Card payment is not available on this gateway.");

  await signUpAndLogin(page, "prod-buyer");
  await expect(testMode).toHaveCount(0);
  await page.goto("/");
  await page.getByRole("link", { name: "View details of 100 SMS Credits" }).click();
  await expect(unavailable).toBeVisible();
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shopping cart, 1 item" }),
  ).toBeVisible({ timeout: 30_000 });
  await page.goto("/shoppingCart");
  await expect(unavailable).toBeVisible();
  await expect(page.getByRole("button", { name: "Place Order" })).toBeDisabled();
  await expect(testMode).toHaveCount(0);
  // A post of the form, as a stale page would send it, is refused and places no order.
  const refused = await page.request.post("/shoppingCart", {
    form: { intent: "place-order", name: "Prod Buyer", email: "buyer@example.com", phone: "+1 555 010 2030" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(503);
  await page.goto("/order/myOrders");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("Pending");
});

test("the setup link creates the first admin once; a second use is refused", async ({ page, browser }) => {
  const link = setupLink()!;
  const owner = newAccount("owner");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create the administrator");
  await page.getByRole("button", { name: "Create administrator" }).click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Full Name").fill(owner.fullName);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByLabel("Confirm Password").fill(`${owner.password}-typo`);
  await page.getByRole("button", { name: "Create administrator" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByLabel("Confirm Password").fill(owner.password);
  await page.getByRole("button", { name: "Create administrator" }).click();
  // Argon2 and a fresh session on a busy machine: more than the default wait.
  await expect(page).toHaveURL(/\/order\/allOrders$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Orders List");
  // Admins, and only they, are told why customers cannot pay by card; no test-mode banner either.
  await page.goto("/admin");
  await expect(page.getByRole("region", { name: "Configuration" })).toContainText("Card payments are not configured.");
  await expect(page.getByRole("region", { name: "Test mode" })).toHaveCount(0);

  const other = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.name === "js" });
  const second = await other.newPage();
  const response = await second.goto(link);
  expect(response?.status()).toBe(410);
  await expect(second.getByRole("alert")).toContainText("This setup link has already been used.");
  await expect(second.getByLabel("Email")).toHaveCount(0);
  await other.close();
});

test("a second start on the same port says why it cannot listen, and leaves no Redis of its own running", async () => {
  const otherDir = mkdtempSync(join(tmpdir(), "smsgw-prod-start-2-"));
  try {
    const second = spawn(process.execPath, ["scripts/run.mjs", "scripts/start.ts"], {
      env: { ...startEnv, DATA_DIR: otherDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let said = "";
    for (const stream of [second.stdout!, second.stderr!])
      stream.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const code = await new Promise((resolve) => second.once("exit", resolve));
    expect(code).toBe(1);
    expect(said).toContain(`EADDRINUSE`);
    expect(said).toContain("another program (perhaps another SMS Gateway) listens there; stop it or set PORT");
    expect(said).not.toContain("SMS Gateway is up");
    // Its private Redis (started before the port was tried) is stopped: no redis-server serves its folder.
    const left = spawnSync("pgrep", ["-f", join(otherDir, "redis")], { encoding: "utf8" }).stdout.trim();
    expect(left).toBe("");
  } finally {
    rmSync(otherDir, { recursive: true, force: true });
  }
});
