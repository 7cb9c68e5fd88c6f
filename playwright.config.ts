import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { portBelowEphemeral } from "./tests/support/ports.ts";

// Decided once in the main process; workers inherit them through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "smsgw-e2e-"));
process.env.E2E_PORT ??= String(portBelowEphemeral("e2eApp"));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Margins for a busy machine: with 2 cores shared by 20 busy processes (load average 40-45) one
  // page load took up to 30 s and a six-step test 3 minutes. Tests stay short (each sets up its own
  // state, see credits.ts and contacts.ts), wait on what the user sees; these bounds catch hangs.
  timeout: 300_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      // JavaScript-only subjects (page weight, toast dragging) and HTTP-level checks, for which one project is enough.
      testIgnore: /(page-weight|toast-swipe|http-limits)\.spec\.ts$/,
    },
  ],
  webServer: {
    command: "node --experimental-async-context-frame --v8-pool-size=1 scripts/run.mjs scripts/start.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      SEED_DEMO: "1",
      SESSION_SECRET: "e2e-session-secret-of-32-characters",
      // Receipts after 1.5 s; the slow number (+1 202 555 0196) stays Queued for 10 x that, 15 s,
      // long enough for sms.spec.ts to open the history while it is. No other spec waits on receipts.
      SIMULATOR_DLR_MS: "1500",
      LOG_LEVEL: "warn",
      REDIS_URL: "",
      // Every journey registers its own accounts from this one address.
      REGISTER_LIMIT_PER_HOUR: "100000",
      // webhooks.spec.ts's receiver listens on loopback.
      WEBHOOK_ALLOW_PRIVATE: "1",
    },
  },
});
