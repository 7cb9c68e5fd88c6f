import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildNeeded } from "../../scripts/build-if-stale.ts";

/** A project folder whose files were last changed at the given seconds. */
function project(times: { build?: number; source: number; nested?: number }): string {
  const root = mkdtempSync(join(tmpdir(), "smsgw-build-"));
  const touch = (path: string, seconds: number) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), "x");
    utimesSync(join(root, path), seconds, seconds);
  };
  touch("app/root.tsx", times.source);
  touch("app/routes/sms/send-sms.tsx", times.nested ?? times.source);
  // Folders change when files are added; only the files' own times should count here.
  for (const dir of ["app/routes/sms", "app/routes", "app"]) utimesSync(join(root, dir), times.source, times.source);
  if (times.build !== undefined) touch("build/server/index.js", times.build);
  return root;
}

describe("buildNeeded", () => {
  it("says missing without a build", () => {
    expect(buildNeeded(project({ source: 1000 }))).toBe("missing");
  });

  it("says nothing when the build is newer than every source", () => {
    expect(buildNeeded(project({ source: 1000, nested: 1500, build: 2000 }))).toBeNull();
  });

  it("says stale when a file deep in app/ changed after the build", () => {
    expect(buildNeeded(project({ source: 1000, nested: 2500, build: 2000 }))).toBe("stale");
  });
});
