// The web process loads app/ twice (the server build of the pages, here Vite's, and server/'s own
// imports): both copies share one SQLite connection, the process's (decision 122).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "#server/free-port.ts";
import { stopChildren } from "#tests/support/child-processes.ts";
import { waitFor } from "#tests/support/wait.ts";

const dataDir = mkdtempSync(join(tmpdir(), "smsgw-one-connection-"));
const children: ChildProcess[] = [];

afterAll(async () => {
  await stopChildren(children);
  rmSync(dataDir, { recursive: true, force: true });
});

/** The descriptors of `pid` open on the database file itself: one per connection. */
function databaseDescriptors(pid: number): number {
  const database = join(dataDir, "app.db");
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === database;
    } catch {
      return false; // closed meanwhile
    }
  }).length;
}

it("opens one connection for both copies of app/ (and one for its checkpoint thread)", async () => {
  const port = await freePort();
  const web = spawn(process.execPath, ["scripts/run.mjs", "scripts/start.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", WORKER: "off", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(web);
  let output = "";
  for (const stream of [web.stdout!, web.stderr!]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // The first-admin link's page reads its token from the database in the pages' copy of app/.
  const setupLink = await waitFor(() => /http:\/\/\S+\/setup\/[A-Za-z0-9_-]{43}/.exec(output)?.[0], {
    what: "the start's setup link",
    timeout: 60_000,
  });
  await waitFor(() => output.includes("SMS Gateway is up"), { what: "the web process up", timeout: 60_000 });
  const page = await fetch(setupLink.replace(/^http:\/\/[^/]+/, `http://127.0.0.1:${port}`));
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("<h1");

  expect(databaseDescriptors(web.pid!)).toBe(2);
}, 90_000);
