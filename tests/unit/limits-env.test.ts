import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/utils/env.server.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "env-"));

describe("quotas and limits configuration", () => {
  it("has the documented defaults (docs/operations.md, Quotas and limits)", () => {
    expect(parseEnv({ DATA_DIR: dataDir() })).toMatchObject({
      QUOTA_SCHEDULES: 100,
      QUOTA_CONTACTS: 50_000,
      QUOTA_GROUPS: 500,
      QUOTA_PENDING_ORDERS: 10,
      QUOTA_PENDING_UPLOADS: 3,
      CSV_IMPORT_MAX_ROWS: 50_000,
      CSV_IMPORT_UPLOADS_PER_HOUR: 20,
      API_RATE_LIMIT_PER_MINUTE: 600,
      API_ACCOUNT_RATE_LIMIT_PER_MINUTE: 1200,
      REDIS_MAXMEMORY: "256mb",
    });
  });

  it("raises each by env, and names a bad value", () => {
    const raised = parseEnv({
      DATA_DIR: dataDir(),
      QUOTA_CONTACTS: "1000000",
      REDIS_MAXMEMORY: "2gb",
      CSV_IMPORT_MAX_ROWS: "200000",
    });
    expect(raised).toMatchObject({ QUOTA_CONTACTS: 1_000_000, REDIS_MAXMEMORY: "2gb", CSV_IMPORT_MAX_ROWS: 200_000 });
    expect(() => parseEnv({ DATA_DIR: dataDir(), QUOTA_GROUPS: "0" })).toThrow(/QUOTA_GROUPS/);
    expect(() => parseEnv({ DATA_DIR: dataDir(), REDIS_MAXMEMORY: "lots" })).toThrow(
      /REDIS_MAXMEMORY: must be a size such as 256mb or 1gb/,
    );
  });
});
