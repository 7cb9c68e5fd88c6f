import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  API_KEY_PREFIX,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  maskApiKey,
} from "#app/modules/api-keys/keys.server.ts";
import { parseEnv, prepareDataDir, readSecrets } from "#app/utils/env.server.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "env-"));

describe("API key format", () => {
  it("is the prefix, 36 random base62 characters and a checksum; no two alike", () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) {
      expect(key).toMatch(/^smsgw_live_[0-9A-Za-z]{42}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.map(hashApiKey)).size).toBe(keys.length);
  });

  it("refuses a key with any one character changed, cut short or lengthened", () => {
    const key = generateApiKey();
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    fc.assert(
      fc.property(
        fc.integer({ min: API_KEY_PREFIX.length, max: key.length - 1 }),
        fc.constantFrom(...alphabet),
        (at, char) => {
          fc.pre(key[at] !== char);
          expect(isWellFormedApiKey(key.slice(0, at) + char + key.slice(at + 1))).toBe(false);
        },
      ),
    );
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey(key.replace(API_KEY_PREFIX, "smsgw_test_"))).toBe(false);
  });

  it("is masked to its prefix and last four characters", () => {
    const key = generateApiKey();
    const masked = maskApiKey(key);
    expect(masked.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(masked.endsWith(key.slice(-4))).toBe(true);
    expect(masked).not.toContain(key.slice(API_KEY_PREFIX.length, -4));
  });
});

describe("API configuration", () => {
  it("makes the key secret once and keeps it in DATA_DIR, apart from the session secret", () => {
    const dir = dataDir();
    const first = parseEnv({ DATA_DIR: dir });
    prepareDataDir(first);
    const secrets = readSecrets(first);
    expect(secrets.apiKey).toHaveLength(64);
    expect(readFileSync(join(dir, "api-key-secret"), "utf8")).toBe(secrets.apiKey);
    expect(secrets.apiKey).not.toBe(secrets.session[0]);
    expect(readSecrets(parseEnv({ DATA_DIR: dir })).apiKey).toBe(secrets.apiKey);
    // 10 a second per key, as hosted SMS APIs allow; deployments that need more raise it.
    expect(first.API_RATE_LIMIT_PER_MINUTE).toBe(600);
  });

  it("takes a secret of at least 32 characters and a positive limit", () => {
    expect(
      readSecrets(parseEnv({ DATA_DIR: dataDir(), SESSION_SECRET: "x", API_KEY_SECRET: "s".repeat(32) })).apiKey,
    ).toBe("s".repeat(32));
    expect(() => parseEnv({ DATA_DIR: dataDir(), API_KEY_SECRET: "short" })).toThrow(/API_KEY_SECRET/);
    expect(parseEnv({ DATA_DIR: dataDir(), API_RATE_LIMIT_PER_MINUTE: "5" }).API_RATE_LIMIT_PER_MINUTE).toBe(5);
    expect(() => parseEnv({ DATA_DIR: dataDir(), API_RATE_LIMIT_PER_MINUTE: "0" })).toThrow(
      /API_RATE_LIMIT_PER_MINUTE/,
    );
  });
});
