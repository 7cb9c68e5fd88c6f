// npm test: typecheck, the layer rule, ESLint, Prettier, build, Vitest, Playwright, the fault runs (SQLite, PostgreSQL); then one line "N passed, N failed, N skipped".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";

const out = resolve(".tmp/test-results");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

type Tally = { passed: number; failed: number; skipped: number };
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function readJson<T>(file: string): T | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : null;
}

const onlyE2e = process.argv.includes("--e2e");
const onlyUnit = process.argv.includes("--unit");

if (!run("typecheck", "npx", ["react-router", "typegen"]) || !run("typecheck", "npx", ["tsc"])) {
  ok = false;
  total.failed += 1;
  console.error("typecheck failed (counted as one failure)");
}

// The layer rule (.dependency-cruiser.cjs): one test.
if (run("layers", "npm", ["run", "--silent", "lint:layers"])) {
  total.passed += 1;
} else {
  ok = false;
  total.failed += 1;
}

// ESLint with no warnings (eslint.config.js): one test.
if (run("lint", "npm", ["run", "--silent", "lint"])) {
  total.passed += 1;
} else {
  ok = false;
  total.failed += 1;
}

// Prettier's formatting (.prettierrc.json): one test.
if (run("format", "npm", ["run", "--silent", "format:check"])) {
  total.passed += 1;
} else {
  ok = false;
  total.failed += 1;
}

if (!onlyE2e) {
  const file = resolve(out, "vitest.json");
  const passed = run("vitest", "npx", [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ]);
  const report = readJson<{
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    success: boolean;
  }>(file);
  if (report) {
    total.passed += report.numPassedTests;
    total.failed += report.numFailedTests;
    total.skipped += report.numPendingTests + report.numTodoTests;
  }
  if (!passed || !report) {
    ok = false;
    if (!report || report.numFailedTests === 0) total.failed += 1; // a crash or a failing file outside any test
  }
}

if (!onlyUnit) {
  if (!run("build", "npx", ["react-router", "build"])) {
    ok = false;
    total.failed += 1;
  } else {
    const file = resolve(out, "playwright.json");
    const passed = run("playwright", "npx", ["playwright", "test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
    });
    const report = readJson<{ stats: { expected: number; unexpected: number; flaky: number; skipped: number } }>(file);
    if (report) {
      total.passed += report.stats.expected + report.stats.flaky;
      total.failed += report.stats.unexpected;
      total.skipped += report.stats.skipped;
    }
    if (!passed || !report) {
      ok = false;
      if (!report || report.stats.unexpected === 0) total.failed += 1;
    }
  }
}

// The fault runs (tests/faults/run.ts): on SQLite (about 1.5 to 2 minutes), then several hosts on
// PostgreSQL with fewer messages (two web and two worker processes share the 2 cores; under 3
// minutes). Each of a run's named checks counts as one test.
const FAULT_RUNS = [
  { title: "faults", args: [] },
  { title: "faults on PostgreSQL", args: ["--postgres", "--messages", "2000"] },
];
if (!onlyUnit && !onlyE2e) {
  for (const [index, faultRun] of FAULT_RUNS.entries()) {
    const file = resolve(out, `faults-${index}.json`);
    const passed = run(faultRun.title, process.execPath, [
      "scripts/run.mjs",
      "tests/faults/run.ts",
      ...faultRun.args,
      "--json",
      file,
    ]);
    const report = readJson<{ checks: { passed: boolean }[] }>(file);
    for (const check of report?.checks ?? []) {
      if (check.passed) total.passed += 1;
      else total.failed += 1;
    }
    if (!passed || !report) {
      ok = false;
      if (!report || report.checks.every((c) => c.passed)) total.failed += 1;
    }
  }
}

console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(ok && total.failed === 0 ? 0 : 1);
