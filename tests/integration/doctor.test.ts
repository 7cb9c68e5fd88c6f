// npm run doctor on crafted environments: a production-ready one passes, each unsafe setting is
// named and makes the exit status 1; Redis's persistence and eviction settings are read from a
// real redis-server (the test one: no persistence, noeviction).
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diagnose, type Finding, machineProbes, type Probes } from "../../scripts/doctor-checks.ts";

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-doctor-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const GB = 1024 ** 3;
const healthy: Probes = {
  redisConfig: async () => ({ appendonly: "yes", save: "", "maxmemory-policy": "noeviction" }),
  disk: () => ({ freeBytes: 50 * GB, totalBytes: 100 * GB }),
  clock: () => "synchronized",
};

const production: NodeJS.ProcessEnv = {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  TRUST_PROXY: "loopback",
  REDIS_URL: "redis://127.0.0.1:6379",
  SESSION_SECRET: "a".repeat(64),
  API_KEY_SECRET: "b".repeat(64),
  SMS_TRANSPORT: "smpp",
  SMPP_URL: "smpp://gw:secret@smsc.carrier.test:2775",
  STRIPE_SECRET_KEY: "sk_live_123",
  STRIPE_PUBLISHABLE_KEY: "pk_live_123",
  STRIPE_WEBHOOK_SECRET: "whsec_123",
  SMTP_URL: "smtps://mail:pw@smtp.mail.test:465",
  APP_URL: "https://sms.example.com",
};

const unsafeTopics = (findings: Finding[]) => findings.filter((f) => f.level === "unsafe").map((f) => f.topic);
const levelOf = (findings: Finding[], topic: string) => findings.filter((f) => f.topic === topic).map((f) => f.level);

describe("the checks", () => {
  it("pass a production-ready configuration with nothing to look at", async () => {
    const findings = await diagnose(production, healthy);
    expect(findings.filter((f) => f.level !== "ok")).toEqual([]);
  });

  it("name test mode, plain cookies, demo data and test payments as unsafe", async () => {
    const findings = await diagnose(
      {
        ...production,
        SMS_TRANSPORT: "simulator",
        STRIPE_SECRET_KEY: "sk_test_123",
        COOKIE_SECURE: "0",
        SEED_DEMO: "1",
        ALLOW_TEST_PAYMENTS: "1",
      },
      healthy,
    );
    expect(unsafeTopics(findings)).toEqual([
      "SMS_TRANSPORT",
      "STRIPE_SECRET_KEY",
      "ALLOW_TEST_PAYMENTS",
      "SEED_DEMO",
      "COOKIE_SECURE",
    ]);
    // No Stripe keys: test cards taking real credits is unsafe; no card payment at all (credits by invoice) is a choice.
    const noStripe = { ...production, STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "", STRIPE_WEBHOOK_SECRET: "" };
    expect(unsafeTopics(await diagnose({ ...noStripe, ALLOW_TEST_PAYMENTS: "1" }, healthy))).toEqual([
      "payments",
      "ALLOW_TEST_PAYMENTS",
    ]);
    const byInvoice = await diagnose(noStripe, healthy);
    expect(unsafeTopics(byInvoice)).toEqual([]);
    expect(levelOf(byInvoice, "payments")).toEqual(["warn"]);
  });

  it("tell secrets from the environment from generated files, and refuse a short one", async () => {
    writeFileSync(join(dataDir, "session-secret"), "x".repeat(64));
    const generated = await diagnose({ ...production, SESSION_SECRET: undefined, API_KEY_SECRET: undefined }, healthy);
    expect(generated.find((f) => f.topic === "SESSION_SECRET")).toMatchObject({
      level: "warn",
      message: expect.stringContaining("generated file"),
    });
    expect(generated.find((f) => f.topic === "API_KEY_SECRET")).toMatchObject({
      level: "warn",
      message: expect.stringContaining("is unset"),
    });
    // Production refuses to start with it, so the doctor reports the configuration as refused.
    expect(await diagnose({ ...production, SESSION_SECRET: "short" }, healthy)).toEqual([
      { level: "unsafe", topic: "configuration", message: expect.stringContaining("SESSION_SECRET") },
    ]);
    const development = await diagnose({ ...production, NODE_ENV: "development", SESSION_SECRET: "short" }, healthy);
    expect(unsafeTopics(development)).toContain("SESSION_SECRET");
  });

  it("warn about a DATA_DIR other users may read", async () => {
    chmodSync(dataDir, 0o755);
    try {
      expect(levelOf(await diagnose(production, healthy), "DATA_DIR")).toEqual(["warn"]);
    } finally {
      chmodSync(dataDir, 0o700);
    }
    expect(levelOf(await diagnose(production, healthy), "DATA_DIR")).toEqual([]);
  });

  it("warn about the proxy settings, and report an invalid configuration as unsafe", async () => {
    expect(levelOf(await diagnose({ ...production, TRUST_PROXY: "0" }, healthy), "TRUST_PROXY")).toEqual(["warn"]);
    expect(levelOf(await diagnose({ ...production, HOST: "0.0.0.0" }, healthy), "HOST")).toEqual(["warn"]);
    const invalid = await diagnose({ ...production, TRUST_PROXY: "not an address" }, healthy);
    expect(invalid).toEqual([
      { level: "unsafe", topic: "configuration", message: expect.stringContaining("TRUST_PROXY") },
    ]);
  });

  it("judge Redis's eviction and persistence, the free disk and the clock", async () => {
    const evicting = await diagnose(production, {
      ...healthy,
      redisConfig: async () => ({ appendonly: "no", save: "", "maxmemory-policy": "allkeys-lru" }),
    });
    expect(levelOf(evicting, "Redis")).toEqual(["unsafe", "warn"]);
    const unreachable = await diagnose(production, {
      ...healthy,
      redisConfig: async () => {
        throw new Error("connect ECONNREFUSED");
      },
    });
    expect(levelOf(unreachable, "Redis")).toEqual(["unsafe"]);
    expect(
      levelOf(
        await diagnose(production, { ...healthy, disk: () => ({ freeBytes: 0.5 * GB, totalBytes: 100 * GB }) }),
        "disk",
      ),
    ).toEqual(["unsafe"]);
    expect(
      levelOf(
        await diagnose(production, { ...healthy, disk: () => ({ freeBytes: 8 * GB, totalBytes: 100 * GB }) }),
        "disk",
      ),
    ).toEqual(["warn"]);
    expect(levelOf(await diagnose(production, { ...healthy, clock: () => "not synchronized" }), "clock")).toEqual([
      "unsafe",
    ]);
    expect(levelOf(await diagnose(production, { ...healthy, clock: () => "unknown" }), "clock")).toEqual(["warn"]);
  });

  it("read the settings of a real Redis", async () => {
    // The test Redis runs without persistence and with noeviction.
    const real = await diagnose(
      { ...production, REDIS_URL: process.env.REDIS_URL },
      { ...healthy, redisConfig: machineProbes.redisConfig },
    );
    expect(real.filter((f) => f.topic === "Redis")).toEqual([
      { level: "warn", topic: "Redis", message: expect.stringContaining("no persistence") },
    ]);
  });
});

it("npm run doctor exits 1 when something is unsafe, with a line per finding, reading an env file", async () => {
  const envFile = join(dataDir, "env");
  // The units' EnvironmentFile, quoted values and comments as systemd takes them.
  writeFileSync(envFile, `# production\nSMS_TRANSPORT="simulator"\nREDIS_URL=${process.env.REDIS_URL}\n`);
  const child = spawn(process.execPath, ["scripts/run.mjs", "scripts/doctor.ts", "--env-file", envFile], {
    env: { ...process.env, ...production },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  const code = await new Promise((done) => child.once("exit", done));
  expect(output).toMatch(/^UNSAFE {2}SMS_TRANSPORT: is the simulator/m);
  expect(output).toContain("not ready for production");
  expect(code).toBe(1);
});
