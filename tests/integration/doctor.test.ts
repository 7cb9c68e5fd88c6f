// npm run doctor on crafted environments: a production-ready one passes, each unsafe setting is
// named and makes the exit status 1; Redis's persistence and eviction settings are read from a
// real redis-server (the test one: no persistence, noeviction).
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startConfigBeacon } from "#app/modules/health/fleet-config.server.ts";
import { SETTING_NAMES } from "#app/utils/env.server.ts";
import { freshDatabase } from "#tests/support/postgres.ts";
import { diagnose, type Finding, machineProbes, type Probes } from "../../scripts/doctor-checks.ts";

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-doctor-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const GB = 1024 ** 3;
const healthy: Probes = {
  redisConfig: async () => ({ appendonly: "yes", save: "", "maxmemory-policy": "noeviction" }),
  disk: () => ({ freeBytes: 50 * GB, totalBytes: 100 * GB }),
  clock: () => "synchronized",
  postgres: async () => ({
    version: 150010,
    clockOffsetMs: 3,
    maxConnections: 100,
    reservedConnections: 3,
    openConnections: 12,
    trigram: "installed",
  }),
  redisClockOffset: async () => -2,
  fleetConfig: async () => new Map(),
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

describe("with DATABASE_URL (several hosts)", () => {
  const severalHosts = { ...production, DATABASE_URL: "postgres://smsgw:pw@db.internal.test:5432/smsgw" };
  const ownBeat = (settings: NodeJS.ProcessEnv) => ({
    at: Date.now(),
    role: "worker" as const,
    digests: Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, value ?? ""])) as Record<
      string,
      string
    >,
  });

  it("check the server's version, both clocks, the connection budget and pg_trgm", async () => {
    const findings = await diagnose(severalHosts, healthy);
    for (const topic of ["PostgreSQL", "Redis", "connections", "pg_trgm"])
      expect(
        levelOf(findings, topic).filter((level) => level !== "ok"),
        topic,
      ).toEqual([]);
    expect(findings).toContainEqual({
      level: "ok",
      topic: "connections",
      message: expect.stringContaining("2 processes x (DATABASE_POOL_SIZE 10 + 1) = 22 of 97 usable connections"),
    });
    const facts = await healthy.postgres("");
    const unsafe = await diagnose(severalHosts, {
      ...healthy,
      postgres: async () => ({
        ...facts,
        version: 140005,
        clockOffsetMs: 4_000,
        maxConnections: 20,
        trigram: "missing",
      }),
      redisClockOffset: async () => -600,
    });
    expect(levelOf(unsafe, "PostgreSQL")).toEqual(["unsafe", "unsafe"]);
    expect(levelOf(unsafe, "Redis").at(-1)).toBe("warn");
    expect(levelOf(unsafe, "connections")).toEqual(["unsafe"]);
    expect(levelOf(unsafe, "pg_trgm")).toEqual(["unsafe"]);
    const unreachable = await diagnose(severalHosts, {
      ...healthy,
      postgres: async () => {
        throw new Error("connect ECONNREFUSED");
      },
    });
    expect(levelOf(unreachable, "PostgreSQL")).toEqual(["unsafe"]);
  });

  it("name a host whose configuration differs, and which settings", async () => {
    const findings = await diagnose(severalHosts, {
      ...healthy,
      fleetConfig: async () => new Map([["other-host:42:worker", ownBeat({ SESSION_SECRET: "x" })]]),
    });
    expect(findings).toContainEqual({
      level: "unsafe",
      topic: "configuration",
      message: expect.stringMatching(/^other-host:42:worker runs with a different .*SESSION_SECRET/),
    });
    expect(levelOf(await diagnose(severalHosts, healthy), "configuration")).toEqual(["warn"]);
  });

  it("read a real PostgreSQL server and the configuration the processes publish in Redis", async () => {
    const real = {
      ...severalHosts,
      DATABASE_URL: await freshDatabase({ migrated: true }),
      REDIS_URL: process.env.REDIS_URL,
      QUEUE_PREFIX: process.env.QUEUE_PREFIX,
    };
    const probes = {
      ...healthy,
      ...machineProbes,
      redisConfig: healthy.redisConfig,
      disk: healthy.disk,
      clock: healthy.clock,
    };
    const web = startConfigBeacon("web", SETTING_NAMES, { NODE_ENV: "production", ...real, PORT: "3001" });
    const worker = startConfigBeacon("worker", SETTING_NAMES, { NODE_ENV: "production", ...real, SMPP_TPS: "99" });
    try {
      await expect.poll(async () => (await probes.fleetConfig(real.REDIS_URL!, real.QUEUE_PREFIX!)).size).toBe(2);
      const findings = await diagnose(real, probes);
      // The same machine: both clocks agree; the test cluster has 200 connections and the migrations installed pg_trgm.
      for (const topic of ["PostgreSQL", "Redis", "connections", "pg_trgm"])
        expect(
          levelOf(findings, topic).filter((level) => level !== "ok"),
          topic,
        ).toEqual([]);
      // A per-host setting (PORT) may differ; SMPP_TPS may not.
      expect(findings.filter((f) => f.topic === "configuration")).toEqual([
        {
          level: "unsafe",
          topic: "configuration",
          message: expect.stringMatching(/:worker runs with a different SMPP_TPS: every host needs the same$/),
        },
      ]);
    } finally {
      await web.stop();
      await worker.stop();
    }
  });
});
