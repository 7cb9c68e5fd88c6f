import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../app/utils/env.server.ts";

describe("configuration", () => {
  it("runs with nothing set: defaults, and a session secret made once and kept in DATA_DIR", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    const first = parseEnv({ DATA_DIR: dir });
    expect(first.PORT).toBe(3000);
    expect(first.WORKER).toBe("inline");
    expect(first.DEMO_MODE).toBe(false);
    expect(first.SESSION_SECRETS[0]).toHaveLength(64);
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(first.SESSION_SECRETS[0]);
    expect(parseEnv({ DATA_DIR: dir }).SESSION_SECRETS).toEqual(first.SESSION_SECRETS);
  });

  it("accepts a comma-separated secret list for rotation, newest first", () => {
    const dir = mkdtempSync(join(tmpdir(), "env-"));
    expect(parseEnv({ DATA_DIR: dir, SESSION_SECRET: "new, old" }).SESSION_SECRETS).toEqual(["new", "old"]);
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
