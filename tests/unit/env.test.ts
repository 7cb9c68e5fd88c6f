import { existsSync, mkdtempSync, readFileSync } from "node:fs";
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

  it("marks cookies Secure in production unless told otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    expect(parseEnv({ DATA_DIR: dir, NODE_ENV: "production" }).cookieSecure).toBe(true);
    expect(parseEnv({ DATA_DIR: dir, NODE_ENV: "production", COOKIE_SECURE: "0" }).cookieSecure).toBe(false);
    expect(parseEnv({ DATA_DIR: dir }).cookieSecure).toBe(false);
  });
});
