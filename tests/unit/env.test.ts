import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, prepareDataDir, readSecrets } from "#app/utils/env.server.ts";

describe("configuration", () => {
  it("runs with nothing set: defaults, and a session secret made once and kept in DATA_DIR", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "env-")), "data");
    const first = parseEnv({ DATA_DIR: dir });
    expect(first.PORT).toBe(3000);
    expect(first.WORKER).toBe("inline");
    expect(first.DEMO_MODE).toBe(false);
    // Parsing writes nothing: prepareDataDir makes the folder and the secrets, once.
    expect(existsSync(dir)).toBe(false);
    expect(() => readSecrets(first)).toThrow(/session-secret is missing/);
    prepareDataDir(first);
    const secrets = readSecrets(first);
    expect(secrets.session[0]).toHaveLength(64);
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(secrets.session[0]);
    prepareDataDir(first);
    expect(readSecrets(parseEnv({ DATA_DIR: dir })).session).toEqual(secrets.session);
    // Each secret is written under a draft name and linked into place whole; no draft stays behind.
    expect(readdirSync(dir).sort()).toEqual(["api-key-secret", "session-secret"]);
  });

  it("accepts a comma-separated secret list for rotation, newest first", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    const env = parseEnv({ DATA_DIR: dir, SESSION_SECRET: "new, old" });
    prepareDataDir(env);
    expect(readSecrets(env).session).toEqual(["new", "old"]);
    expect(existsSync(join(dir, "session-secret"))).toBe(false);
  });

  it("defines test mode once, and seeds the demo by default only in full test mode", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    const smpp = { DATA_DIR: dir, SMS_TRANSPORT: "smpp", SMPP_URL: "smpp://a:b@127.0.0.1:2775" };
    const stripe = {
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
    };
    const defaults = parseEnv({ DATA_DIR: dir });
    expect(defaults.testMode).toEqual({ payments: true, sms: true, demo: true, active: true, full: true });
    expect(defaults.cardPayments).toBe("test-cards");
    expect(defaults.seedDemo).toBe(true);
    // A real SMSC without Stripe (credits sold by invoice): nothing runs in test mode, and no card is taken.
    expect(parseEnv({ ...smpp }).testMode).toEqual({
      payments: false,
      sms: false,
      demo: false,
      active: false,
      full: false,
    });
    expect(parseEnv({ ...smpp }).cardPayments).toBe("unavailable");
    expect(parseEnv({ ...smpp }).seedDemo).toBe(false);
    expect(parseEnv({ ...smpp, ALLOW_TEST_PAYMENTS: "1" }).testMode).toMatchObject({ payments: true, active: true });
    expect(parseEnv({ ...smpp, ALLOW_TEST_PAYMENTS: "1" }).cardPayments).toBe("test-cards");
    expect(parseEnv({ ...smpp, SEED_DEMO: "1" }).seedDemo).toBe(true);
    expect(parseEnv({ ...smpp, SEED_DEMO: "1" }).testMode).toMatchObject({ demo: true, active: true, full: false });
    expect(parseEnv({ DATA_DIR: dir, ...stripe }).testMode).toEqual({
      payments: false,
      sms: true,
      demo: false,
      active: true,
      full: false,
    });
    expect(parseEnv({ DATA_DIR: dir, ...stripe }).cardPayments).toBe("stripe");
    expect(parseEnv({ ...smpp, ...stripe }).testMode.active).toBe(false);
    expect(parseEnv({ DATA_DIR: dir, SEED_DEMO: "0" }).seedDemo).toBe(false);
    expect(parseEnv({ DATA_DIR: dir, SEED_DEMO: "auto" }).seedDemo).toBe(true);
  });

  it("names the bad variable", () => {
    expect(() => parseEnv({ PORT: "not-a-port" })).toThrow(/PORT/);
    expect(() => parseEnv({ WORKER: "sometimes" })).toThrow(/WORKER/);
  });

  it("with DATABASE_URL, requires the Redis and the secrets every host must share", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://db/smsgw" })).toThrow(/DATABASE_URL: a postgres:\/\//);
    expect(() => parseEnv({ DATABASE_URL: "postgres://smsgw@db.internal.test/smsgw" })).toThrow(
      /REDIS_URL: required with DATABASE_URL[\s\S]*SESSION_SECRET: required with DATABASE_URL[\s\S]*API_KEY_SECRET: required/,
    );
    const env = parseEnv({
      DATABASE_URL: "postgresql://smsgw@db.internal.test/smsgw",
      REDIS_URL: "redis://redis.internal.test:6379",
      SESSION_SECRET: "s".repeat(32),
      API_KEY_SECRET: "k".repeat(32),
    });
    expect(env.DATABASE_URL).toBe("postgresql://smsgw@db.internal.test/smsgw");
    expect(env.DATABASE_POOL_SIZE).toBe(10);
  });

  it("marks cookies Secure in production unless told otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    expect(parseEnv({ DATA_DIR: dir, NODE_ENV: "production" }).cookieSecure).toBe(true);
    expect(parseEnv({ DATA_DIR: dir, NODE_ENV: "production", COOKIE_SECURE: "0" }).cookieSecure).toBe(false);
    expect(parseEnv({ DATA_DIR: dir }).cookieSecure).toBe(false);
  });

  describe("in production", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    const production = { DATA_DIR: dir, NODE_ENV: "production", SESSION_SECRET: "f".repeat(64) };
    const example = Object.fromEntries(
      readFileSync("deploy/env.example", "utf8")
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );

    it("refuses the placeholders of deploy/env.example, naming each", () => {
      expect(example.SESSION_SECRET).toBeDefined();
      const refusal = () => parseEnv({ ...example, DATA_DIR: dir });
      expect(refusal).toThrow(/SESSION_SECRET: is the placeholder of deploy\/env\.example/);
      expect(refusal).toThrow(/API_KEY_SECRET: is the placeholder of deploy\/env\.example/);
      expect(refusal).toThrow(/STRIPE_SECRET_KEY: is the placeholder of deploy\/env\.example/);
      expect(refusal).toThrow(/SMPP_URL: is the placeholder of deploy\/env\.example/);
      expect(refusal).toThrow(/SMTP_URL: is the placeholder of deploy\/env\.example/);
      expect(() =>
        parseEnv({ ...production, SESSION_SECRET: `${"f".repeat(64)}, change-me-openssl-rand-hex-32` }),
      ).toThrow(/SESSION_SECRET: is the placeholder/);
    });

    it("refuses a session secret shorter than 32 characters, and accepts a real one", () => {
      expect(() => parseEnv({ ...production, SESSION_SECRET: "short-secret" })).toThrow(
        /SESSION_SECRET: at least 32 characters in production/,
      );
      expect(() => parseEnv({ ...production, SESSION_SECRET: `${"f".repeat(64)},old` })).toThrow(/SESSION_SECRET/);
      expect(parseEnv(production).SESSION_SECRET).toBe("f".repeat(64));
      // Development and tests keep any secret.
      expect(parseEnv({ DATA_DIR: dir, SESSION_SECRET: "change-me" }).SESSION_SECRET).toBe("change-me");
    });

    it("asks for APP_URL when links leave the site: e-mail or Stripe", () => {
      const stripe = {
        STRIPE_SECRET_KEY: "sk_live_1",
        STRIPE_PUBLISHABLE_KEY: "pk_live_1",
        STRIPE_WEBHOOK_SECRET: "whsec_1",
      };
      for (const linksLeave of [{ SMTP_URL: "smtps://mail.provider.test" }, stripe])
        expect(() => parseEnv({ ...production, ...linksLeave })).toThrow(/APP_URL: required in production/);
      expect(parseEnv({ ...production, ...stripe, APP_URL: "https://sms.example.com/" }).appUrl).toBe(
        "https://sms.example.com",
      );
      // Nothing leaves the site: links name this server on localhost, never a request's Host.
      expect(parseEnv(production).appUrl).toBe("http://localhost:3000");
    });

    it("requires TLS of a mail server beyond loopback unless told otherwise", () => {
      const mail = (url: string, more: Record<string, string> = {}) =>
        parseEnv({ ...production, APP_URL: "https://sms.example.com", SMTP_URL: url, ...more }).smtpRequireTls;
      expect(mail("smtp://mail.provider.test:587")).toBe(true);
      expect(mail("smtp://127.0.0.1:25")).toBe(false);
      expect(mail("smtp://localhost:25")).toBe(false);
      expect(mail("smtp://mail.provider.test:587", { SMTP_REQUIRE_TLS: "0" })).toBe(false);
      expect(mail("smtp://127.0.0.1:25", { SMTP_REQUIRE_TLS: "1" })).toBe(true);
      expect(parseEnv({ DATA_DIR: dir, SMTP_URL: "smtp://mail.example.com" }).smtpRequireTls).toBe(false);
    });

    it("npm start stops at once with the reason on one line, no stack trace", () => {
      const start = spawnSync(process.execPath, ["scripts/run.mjs", "scripts/start.ts"], {
        env: { ...process.env, ...production, SESSION_SECRET: "change-me-openssl-rand-hex-32", LOG_LEVEL: "silent" },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(start.status).toBe(1);
      expect(start.stderr.trim().split("\n")).toEqual([
        "Invalid configuration: SESSION_SECRET: is the placeholder of deploy/env.example; replace it (openssl rand -hex 32)",
      ]);
    });
  });
});
