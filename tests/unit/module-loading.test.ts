// No module loading at run time (decision 113): the web and the worker import what they use at module
// top level, so no request, job or SMPP answer resolves a module (package.json lookups, a loader round
// trip). The few import() / require() calls in app/, server/ and worker/ are listed here with why
// they are not on a hot path; tests/integration/budgets.test.ts checks the running processes too.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

/** Dynamic import(), require(), createRequire and their resolve(): loading a module when the line runs. */
const LOADS_A_MODULE =
  /(?:^|[^\w$.])import\(|(?:^|[^\w$.])require(?:\.resolve)?\(|createRequire\(|import\.meta\.resolve/;

const ALLOWED: { file: string; line: string; why: string }[] = [
  {
    file: "app/modules/auth/common-passwords.server.ts",
    line: 'await import("@zxcvbn-ts/language-common")',
    why: "once per process (the promise is kept), at the first password set: a few MB kept out of start-up",
  },
  {
    file: "app/db/checkpointer.server.ts",
    line: 'createRequire(import.meta.url).resolve("better-sqlite3")',
    why: "at start-up: finds better-sqlite3 for the checkpoint thread",
  },
  {
    file: "app/db/checkpointer.server.ts",
    line: 'require("node:worker_threads")',
    why: "the checkpoint thread's own source, run once when the thread starts",
  },
  {
    file: "app/db/checkpointer.server.ts",
    line: "require(workerData.driver)",
    why: "the checkpoint thread's own source, run once when the thread starts",
  },
  {
    file: "app/routes/shop/payment.tsx",
    line: 'lazy(() => import("#app/components/shop/stripe-payment-form.tsx"))',
    why: "in the browser: the card form's code is fetched only on the payment page",
  },
  {
    file: "server/http.ts",
    line: 'await import(resolve(process.cwd(), "build/server/index.js"))',
    why: "at start-up: the production build",
  },
  {
    file: "server/http.ts",
    line: 'await import("vite")',
    why: "at start-up, in development only",
  },
];

function sourceFiles(): string[] {
  return ["app", "server", "worker"].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.(ts|tsx|js|mjs|cjs)$/.test(name))
      .map((name) => `${dir}/${name}`),
  );
}

const loads = sourceFiles().flatMap((file) =>
  readFileSync(join(root, file), "utf8")
    .split("\n")
    .flatMap((text, index) => (LOADS_A_MODULE.test(text) ? [{ file, number: index + 1, text: text.trim() }] : [])),
);
const allowed = (load: (typeof loads)[number]) =>
  ALLOWED.some((entry) => entry.file === load.file && load.text.includes(entry.line));

describe("module loading in app/, server/ and worker/", () => {
  it("happens only where the list says why it is off the hot path", () => {
    const unexplained = loads
      .filter((load) => !allowed(load))
      .map((load) => `${load.file}:${load.number} ${load.text}`);
    expect(
      unexplained,
      "import the module at the top of the file (or, off the hot path, load it once and keep it, and list it here with why)",
    ).toEqual([]);
  });

  it("lists no load that is gone", () => {
    const gone = ALLOWED.filter(
      (entry) => !loads.some((load) => load.file === entry.file && load.text.includes(entry.line)),
    );
    expect(gone).toEqual([]);
  });

  it("finds the loads it is about", () => {
    const loading = ['await import("x")', "(import('x'))", "require('x')", "require.resolve('x')", "createRequire(u)"];
    const notLoading = ["import { x } from 'y';", "reimport(x)", "db.require(x)", "requireUser(request)"];
    expect(loading.filter((text) => !LOADS_A_MODULE.test(text))).toEqual([]);
    expect(notLoading.filter((text) => LOADS_A_MODULE.test(text))).toEqual([]);
  });
});
