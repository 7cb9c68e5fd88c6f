// Five starts at once on an empty database (the systemd units of deploy/ start a web and a worker
// together; a fleet starts several webs): they migrate and seed once and print one setup link.
import Database from "better-sqlite3";
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { PACKAGE_LADDER } from "#app/modules/seed/seed.server.ts";
import { stopChildren } from "#tests/support/child-processes.ts";

const STARTS = 5;
const dataDirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  await stopChildren(children);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function emptyDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "smsgw-start-twice-"));
  dataDirs.push(dir);
  return dir;
}

/** One start's database work (scripts/prepare-database.ts, as npm start runs it) in `dataDir`, once the file `barrier` exists. */
function start(
  dataDir: string,
  barrier: string,
): { ready: Promise<unknown>; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, ["scripts/run.mjs", "tests/support/prepare-database-child.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, START_BARRIER: barrier },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  let said = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise((loaded) =>
    child.stderr!.on("data", (chunk: Buffer) => (said += chunk.toString()).includes("ready") && loaded(undefined)),
  );
  const done = new Promise<{ code: number | null; output: string }>((exited) =>
    child.once("exit", (code) => exited({ code, output: code === 0 ? output : output + said })),
  );
  // A child that fails before it is ready is reported by the exit check.
  return { ready: Promise.race([ready, done]), done };
}

it("migrates once, seeds once and prints one setup link, the same from every start and still valid", async () => {
  const dataDir = emptyDataDir();
  const barrier = join(dataDir, "go");
  const processes = Array.from({ length: STARTS }, () => start(dataDir, barrier));
  await Promise.all(processes.map((started) => started.ready));
  writeFileSync(barrier, "go");
  const starts = await Promise.all(processes.map((started) => started.done));
  for (const { code, output } of starts) expect({ code, output }).toMatchObject({ code: 0 });
  const links = starts.map(({ output }) => (JSON.parse(output) as { token: string | null }).token);
  expect(links[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(new Set(links).size).toBe(1);

  const db = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] };
    const applied = db.prepare("select hash, count(*) as times from __drizzle_migrations group by hash").all() as {
      times: number;
    }[];
    expect(applied).toHaveLength(journal.entries.length);
    expect(applied.every((migration) => migration.times === 1)).toBe(true);
    expect(db.prepare("select count(*) from packages").pluck().get()).toBe(PACKAGE_LADDER.length);
    const unused = db
      .prepare("select token_hash as hash, expires_at as expiresAt from setup_tokens where used_at is null")
      .all() as {
      hash: string;
      expiresAt: number;
    }[];
    expect(unused).toEqual([
      { hash: createHash("sha256").update(links[0]!).digest("hex"), expiresAt: expect.any(Number) },
    ]);
    expect(unused[0].expiresAt).toBeGreaterThan(Date.now());
    expect(db.prepare("select count(*) from users where role = 'admin'").pluck().get()).toBe(0);
  } finally {
    db.close();
  }
}, 120_000);

it("waits while another process holds the start lock, and goes on once that process dies holding it", async () => {
  const dataDir = emptyDataDir();
  const holder = spawn(
    process.execPath,
    [
      "-e",
      `const lock = new (require("better-sqlite3"))(process.argv[1]); lock.exec("BEGIN IMMEDIATE"); console.log("held"); setInterval(() => {}, 1000);`,
      join(dataDir, "start.lock"),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(holder);
  await new Promise((held) => holder.stdout!.once("data", held));
  writeFileSync(join(dataDir, "go"), "go");
  const waiting = start(dataDir, join(dataDir, "go"));
  await waiting.ready;
  let finished = false;
  void waiting.done.then(() => (finished = true));
  // Given time to migrate (a fraction of this) it has not: it waits on the lock.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(finished).toBe(false);
  holder.kill("SIGKILL");
  expect(await waiting.done).toMatchObject({ code: 0 });
});
