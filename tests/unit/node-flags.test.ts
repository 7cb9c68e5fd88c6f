import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { appNodeFlags } from "../../scripts/node-flags.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const flagsOf = (command: string) => command.split(/\s+/).filter((word) => word.startsWith("--"));

// The bench and the fault run start the app with `npm start`'s flags (appNodeFlags); every other way
// the web and the workers start must give the same ones, or what is measured is not what runs.
it("starts the web and the workers with npm start's Node flags everywhere", () => {
  const flags = appNodeFlags();
  expect(flags).toContain("--v8-pool-size=1");
  const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
  expect(flagsOf(scripts.dev), "npm run dev").toEqual(flags);
  expect(flagsOf(scripts.worker), "npm run worker").toEqual(flags);
  const webServer = read("playwright.config.ts").match(/command: "(node [^"]+)"/)?.[1];
  expect(flagsOf(webServer ?? ""), "Playwright's web server").toEqual(flags);
  for (const unit of ["deploy/smsgw-web.service", "deploy/smsgw-worker@.service"]) {
    const execStart = read(unit).match(/^ExecStart=(.*)$/m)?.[1];
    expect(flagsOf(execStart ?? ""), unit).toEqual(flags);
  }
});
