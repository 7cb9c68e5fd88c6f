import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/utils/env.server.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "env-"));

describe("SMS configuration", () => {
  it("sends through the simulator by default, to US numbers, up to 10 segments", () => {
    expect(parseEnv({ DATA_DIR: dataDir() })).toMatchObject({
      SMS_TRANSPORT: "simulator",
      SIMULATOR_DLR_MS: 2000,
      DEFAULT_COUNTRY: "US",
      SMS_MAX_SEGMENTS: 10,
      SMPP_TPS: 100,
      SMPP_WINDOW: 10,
    });
  });

  it("takes a country code in any case and refuses one that is not", () => {
    expect(parseEnv({ DATA_DIR: dataDir(), DEFAULT_COUNTRY: "gb" }).DEFAULT_COUNTRY).toBe("GB");
    expect(() => parseEnv({ DATA_DIR: dataDir(), DEFAULT_COUNTRY: "Narnia" })).toThrow(/DEFAULT_COUNTRY/);
  });

  it("needs an smpp:// URL for the SMPP transport", () => {
    expect(() => parseEnv({ DATA_DIR: dataDir(), SMS_TRANSPORT: "smpp" })).toThrow(/SMPP_URL/);
    expect(() => parseEnv({ DATA_DIR: dataDir(), SMS_TRANSPORT: "smpp", SMPP_URL: "http://x" })).toThrow(/SMPP_URL/);
    expect(
      parseEnv({ DATA_DIR: dataDir(), SMS_TRANSPORT: "smpp", SMPP_URL: "smpp://id:pw@smsc.example:2775" }).SMPP_URL,
    ).toBe("smpp://id:pw@smsc.example:2775");
  });
});
