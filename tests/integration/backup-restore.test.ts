// A backup taken while a send burst writes, restored into a fresh DATA_DIR and started there: the
// restored gateway sends what the backup had queued, and every ledger and message invariant of the
// fault run holds (tests/faults/checks.ts). Also: restore refuses while the database is open.
import Database from "better-sqlite3";
import { type ChildProcess, spawn } from "node:child_process";
import { runToEnd } from "#tests/support/child-processes.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect, it } from "vitest";
import { getSqlite } from "#app/db/client.server.ts";
import { getRedis } from "#app/queue/redis.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { freePort } from "#server/free-port.ts";
import { checkMessagesAndCredits, Findings, sqliteRows } from "#tests/faults/checks.ts";
import { TestSmsc } from "#tests/support/smpp-server.ts";
import { grantCredits } from "#tests/support/sms.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { waitFor } from "#tests/support/wait.ts";

const BURSTS = 3;
const PER_BURST = 400;
const CREDITS = 1_000;

const scratch = mkdtempSync(join(tmpdir(), "smsgw-backup-"));
const children: ChildProcess[] = [];
let smsc: TestSmsc | undefined;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await smsc?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs an entry point to its end; its output is the answer. */
const run = (entry: string, args: string[], env: NodeJS.ProcessEnv) => runToEnd(entry, args, env, children);

const count = (db: Database.Database, sql: string) => (db.prepare(sql).get() as { n: number }).n;

it("backs up during a send burst, restores into a fresh DATA_DIR, and the restored gateway settles with every invariant", async () => {
  const user = await createTestUser();
  await grantCredits(user.id, CREDITS);

  // The burst: processes queueing one message after another against the same database.
  const bursts = Array.from({ length: BURSTS }, () => {
    const child = spawn(
      process.execPath,
      ["tests/support/send-burst.ts", String(user.id), String(PER_BURST), "one-by-one"],
      {
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    children.push(child);
    return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
  });
  for (const { lines } of bursts) expect((await lines.next()).value).toBe("ready");
  for (const { child } of bursts) child.stdin!.write("go\n");
  const messages = () => count(getSqlite(), "select count(*) as n from sms_messages");
  await waitFor(() => messages() >= 100, { what: "the burst to be under way" });

  const backupFile = join(scratch, "app-backup.db");
  const backedUp = await run("scripts/backup.ts", [backupFile], process.env);
  expect(backedUp.output).toContain("checked");
  expect(backedUp.code).toBe(0);
  const tallies = await Promise.all(bursts.map(async ({ lines }) => JSON.parse((await lines.next()).value as string)));
  expect(tallies.reduce((sum, t) => sum + t.queued, 0)).toBe(CREDITS);
  expect(messages()).toBe(CREDITS);

  const backup = new Database(backupFile, { readonly: true });
  const inBackup = count(backup, "select count(*) as n from sms_messages");
  backup.close();
  // Taken during the burst: some of its messages, not all.
  expect(inBackup).toBeGreaterThan(0);
  expect(inBackup).toBeLessThan(CREDITS);

  // Restoring over a database that is open (this test has it) is refused, and changes nothing.
  const refused = await run("scripts/restore.ts", [backupFile], { ...process.env, PORT: String(await freePort()) });
  expect(refused.code).toBe(1);
  expect(refused.output).toMatch(/refused: processes .* have .*app\.db open/);
  expect(messages()).toBe(CREDITS);

  // Into a fresh DATA_DIR, a deployment of its own (prefix) on the same Redis, sending to a loopback SMSC.
  smsc = await TestSmsc.start();
  const restoredEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: join(scratch, "restored"),
    QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}-restored`,
    PORT: String(await freePort()),
    SMS_TRANSPORT: "smpp",
    SMPP_URL: smsc.url(),
    SMPP_TPS: "0",
    WORKER_NICE: "0",
    LOG_LEVEL: "warn",
  };
  // A job of the database being replaced, left in that deployment's Redis: restore deletes it.
  const stale = `${restoredEnv.QUEUE_PREFIX}:sms-send:stale`;
  await getRedis().set(stale, "a job of the replaced database");
  const restored = await run("scripts/restore.ts", [backupFile], restoredEnv);
  expect(restored.output).toContain(`${formatNumber(inBackup)} queued messages go to the workers`);
  expect(restored.output).toContain(`deleted 1 key under "${restoredEnv.QUEUE_PREFIX}:"`);
  expect(restored.code).toBe(0);
  expect(await getRedis().exists(stale)).toBe(0);

  const worker = spawn(process.execPath, ["scripts/run.mjs", "worker/index.ts"], {
    env: restoredEnv,
    stdio: "inherit",
  });
  children.push(worker);
  const db = new Database(join(scratch, "restored", "app.db"), { readonly: true });
  try {
    await waitFor(
      () =>
        count(db, "select count(*) as n from sms_messages where status not in ('delivered', 'failed', 'unknown')") ===
          0 && count(db, "select count(*) as n from sms_outbox") === 0,
      { timeout: 120_000, interval: 250, what: "the restored gateway to send every queued message" },
    );
    const exited = new Promise((done) => worker.once("exit", done));
    worker.kill("SIGTERM");
    await exited;

    const findings = new Findings();
    await checkMessagesAndCredits({
      db: sqliteRows(db),
      users: [{ id: user.id, granted: CREDITS }],
      submits: smsc.accepted,
      kills: [],
      inFlight: 0,
      findings,
    });
    expect(findings.results().filter((result) => !result.passed)).toEqual([]);
    expect(count(db, "select count(*) as n from sms_messages where status = 'delivered'")).toBe(inBackup);
    expect(smsc.accepted).toHaveLength(inBackup);
    expect(count(db, `select credit_balance as n from users where id = ${user.id}`)).toBe(CREDITS - inBackup);
  } finally {
    db.close();
  }
}, 240_000);
