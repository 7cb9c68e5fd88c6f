// Five starts at once on an empty database (the systemd units of deploy/ start a web and a worker
// together; a fleet starts several webs): they migrate and seed once and print one setup link.
import Database from "better-sqlite3";
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import pg from "pg";
import { START_LOCK_KEY } from "#app/db/start-lock.server.ts";
import { PACKAGE_LADDER } from "#app/modules/seed/seed.server.ts";
import { stopChildren } from "#tests/support/child-processes.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

// The "postgres" project: each test's starts share an empty database of their own in the run's cluster.
const onPostgres = process.env.TEST_ENGINE === "postgres";

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
  databaseUrl?: string,
): { ready: Promise<unknown>; done: Promise<{ code: number | null; output: string }> } {
  const database = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const child = spawn(process.execPath, ["scripts/run.mjs", "tests/support/prepare-database-child.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, START_BARRIER: barrier, ...database },
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

type Started = {
  applied: { times: number }[];
  packages: number;
  unused: { hash: string; expiresAt: number }[];
  admins: number;
  migrations: number;
};

/** What the starts left in the database: applied migrations, packages, unused setup links, admins. */
async function readStarted(dataDir: string, databaseUrl?: string): Promise<Started> {
  const unusedLinks = 'select token_hash as hash, expires_at as "expiresAt" from setup_tokens where used_at is null';
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const one = async (text: string) => (await client.query<{ n: string }>(text)).rows[0]!.n;
      const journal = JSON.parse(readFileSync("drizzle-pg/meta/_journal.json", "utf8")) as { entries: unknown[] };
      return {
        applied: (
          await client.query<{ times: string }>(
            "select hash, count(*) as times from drizzle.__drizzle_migrations group by hash",
          )
        ).rows.map((row) => ({ times: Number(row.times) })),
        packages: Number(await one("select count(*) as n from packages")),
        unused: (await client.query<{ hash: string; expiresAt: string }>(unusedLinks)).rows.map((row) => ({
          hash: row.hash,
          expiresAt: Number(row.expiresAt),
        })),
        admins: Number(await one("select count(*) as n from users where role = 'admin'")),
        migrations: journal.entries.length,
      };
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] };
    return {
      applied: db.prepare("select hash, count(*) as times from __drizzle_migrations group by hash").all() as {
        times: number;
      }[],
      packages: db.prepare("select count(*) from packages").pluck().get() as number,
      unused: db.prepare(unusedLinks).all() as Started["unused"],
      admins: db.prepare("select count(*) from users where role = 'admin'").pluck().get() as number,
      migrations: journal.entries.length,
    };
  } finally {
    db.close();
  }
}

it("migrates once, seeds once and prints one setup link, the same from every start and still valid", async () => {
  const dataDir = emptyDataDir();
  const databaseUrl = onPostgres ? await freshDatabase() : undefined;
  const barrier = join(dataDir, "go");
  const processes = Array.from({ length: STARTS }, () => start(dataDir, barrier, databaseUrl));
  await Promise.all(processes.map((started) => started.ready));
  writeFileSync(barrier, "go");
  const starts = await Promise.all(processes.map((started) => started.done));
  for (const { code, output } of starts) expect({ code, output }).toMatchObject({ code: 0 });
  const links = starts.map(({ output }) => (JSON.parse(output) as { token: string | null }).token);
  expect(links[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(new Set(links).size).toBe(1);

  const started = await readStarted(dataDir, databaseUrl);
  expect(started.applied).toHaveLength(started.migrations);
  expect(started.applied.every((migration) => migration.times === 1)).toBe(true);
  expect(started.packages).toBe(PACKAGE_LADDER.length);
  expect(started.unused).toEqual([
    { hash: createHash("sha256").update(links[0]!).digest("hex"), expiresAt: expect.any(Number) },
  ]);
  expect(started.unused[0]!.expiresAt).toBeGreaterThan(Date.now());
  expect(started.admins).toBe(0);
}, 120_000);

it("waits while another process holds the start lock, and goes on once that process dies holding it", async () => {
  const dataDir = emptyDataDir();
  const databaseUrl = onPostgres ? await freshDatabase() : undefined;
  // SQLite's start lock is a write transaction on DATA_DIR/start.lock, PostgreSQL's a session advisory lock.
  const holds = databaseUrl
    ? [
        `const client = new (require("pg").Client)(process.argv[1]); client.connect().then(() => client.query("select pg_advisory_lock(${START_LOCK_KEY})")).then(() => console.log("held")); setInterval(() => {}, 1000);`,
        databaseUrl,
      ]
    : [
        `const lock = new (require("better-sqlite3"))(process.argv[1]); lock.exec("BEGIN IMMEDIATE"); console.log("held"); setInterval(() => {}, 1000);`,
        join(dataDir, "start.lock"),
      ];
  const holder = spawn(process.execPath, ["-e", ...holds], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(holder);
  await new Promise((held) => holder.stdout!.once("data", held));
  writeFileSync(join(dataDir, "go"), "go");
  const waiting = start(dataDir, join(dataDir, "go"), databaseUrl);
  await waiting.ready;
  let finished = false;
  void waiting.done.then(() => (finished = true));
  // Given time to migrate (a fraction of this) it has not: it waits on the lock.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(finished).toBe(false);
  holder.kill("SIGKILL");
  expect(await waiting.done).toMatchObject({ code: 0 });
});
