// What the dashboards' rollup (drizzle/0020's per-row triggers) costs the hot path, against one
// statement per batch: SQLite CPU per message for batches as the set-based path writes them (one
// multi-row INSERT of the messages, one of their debits, one UPDATE to delivered), in three ways:
//   triggers   0020's per-row triggers put back (a rollup upsert per message row and per debit row)
//   none       no rollup at all (the floor)
//   per-batch  one rollup upsert per write statement, grouped by bucket (what the app does since 0032)
// Each round runs the three in turn on a fresh copy of a migrated database file.
//   node scripts/run.mjs scripts/bench/rollup-triggers.ts [--messages 20000] [--batch 100] [--rounds 5]
import Database from "better-sqlite3";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runMigrations } from "#app/db/migrate.server.ts";
import { prepareDataDir } from "#app/utils/env.server.ts";

// The per-row triggers of the send path as drizzle/0020 made them (0032 dropped them): the "triggers" way.
const SEND_PATH_TRIGGERS = readFileSync("drizzle/0020_message_rollup_triggers.sql", "utf8")
  .split("--> statement-breakpoint")
  .filter((sql) => /CREATE TRIGGER `message_rollup_(sms_insert|sms_status|credits_insert)`/.test(sql));

const { values: args } = parseArgs({
  options: {
    messages: { type: "string", default: "20000" },
    batch: { type: "string", default: "100" },
    rounds: { type: "string", default: "5" },
  },
});
const MESSAGES = Number(args.messages);
const BATCH = Number(args.batch);

const dir = mkdtempSync(join(tmpdir(), "smsgw-rollup-"));
process.env.DATA_DIR = dir;
process.env.SESSION_SECRET ??= "rollup-bench-session-secret-0123456789";
prepareDataDir();
await runMigrations();
const seeding = new Database(join(dir, "app.db"));
seeding
  .prepare("insert into users (email, full_name, password_hash) values ('rollup@bench.test', 'Rollup', 'x')")
  .run();
seeding.pragma("wal_checkpoint(TRUNCATE)");
seeding.close();
const template = join(dir, "app.db");

type Way = "triggers" | "none" | "per-batch";
const bucket = (column: string) => `${column} - ${column} % 900000`;

function measure(way: Way, round: number): number {
  const file = join(dir, `${way}-${round}.db`);
  copyFileSync(template, file);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  if (way === "triggers") for (const trigger of SEND_PATH_TRIGGERS) db.exec(trigger);
  const userId = (db.prepare("select id from users").get() as { id: number }).id;
  const insertMessages = db.prepare(
    `insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, source, created_at, updated_at)
     select ?, value ->> '$.to', value ->> '$.body', 'GSM-7', 1, 1, 'queued', 'api', ?, ?
     from json_each(?) returning id`,
  );
  const insertDebits = db.prepare(
    `insert into credit_ledger (user_id, kind, amount, key, created_at)
     select ?, 'debit', -1, 'msg:' || value || ':debit', ? from json_each(?)`,
  );
  const setStatus = db.prepare(
    "update sms_messages set status = ?, updated_at = ? where id in (select value from json_each(?))",
  );
  // One statement per batch for what the triggers do per row (the batch's messages share a bucket or a few).
  const rollupQueued = db.prepare(
    `insert into message_rollup (user_id, bucket, pending, credits)
     select user_id, ${bucket("created_at")}, count(*), sum(credits) from sms_messages
     where id in (select value from json_each(?)) group by 1, 2
     on conflict do update set pending = pending + excluded.pending, credits = credits + excluded.credits`,
  );
  const rollupDelivered = db.prepare(
    `insert into message_rollup (user_id, bucket, pending, delivered)
     select user_id, ${bucket("created_at")}, -count(*), count(*) from sms_messages
     where id in (select value from json_each(?)) group by 1, 2
     on conflict do update set pending = pending + excluded.pending, delivered = delivered + excluded.delivered`,
  );
  const batches = Math.ceil(MESSAGES / BATCH);
  const start = process.cpuUsage();
  let now = 1_764_000_000_000 + round;
  for (let b = 0; b < batches; b++) {
    now += 50;
    const items = JSON.stringify(
      Array.from({ length: BATCH }, (_, i) => ({
        to: `+1202555${String(i).padStart(4, "0")}`,
        body: `Message ${b} ${i}`,
      })),
    );
    const ids = db.transaction(() => {
      const rows = insertMessages.all(userId, now, now, items) as { id: number }[];
      const list = JSON.stringify(rows.map((row) => row.id));
      insertDebits.run(userId, now, list);
      if (way === "per-batch") rollupQueued.run(list);
      return list;
    })();
    db.transaction(() => {
      setStatus.run("submitting", now, ids);
      setStatus.run("submitted", now, ids);
    })();
    db.transaction(() => {
      setStatus.run("delivered", now, ids);
      if (way === "per-batch") rollupDelivered.run(ids);
    })();
  }
  const used = process.cpuUsage(start);
  // The three ways must count the same.
  const totals = db
    .prepare("select sum(pending) as pending, sum(delivered) as delivered, sum(credits) as credits from message_rollup")
    .get();
  db.close();
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  console.log(
    `round ${round + 1} ${way}: ${((used.user + used.system) / (batches * BATCH)).toFixed(2)} µs per message; rollup ${JSON.stringify(totals)}`,
  );
  return (used.user + used.system) / (batches * BATCH);
}

const results = new Map<Way, number[]>([
  ["triggers", []],
  ["none", []],
  ["per-batch", []],
]);
for (let round = 0; round < Number(args.rounds); round++) {
  const ways: Way[] = round % 2 ? ["per-batch", "none", "triggers"] : ["triggers", "none", "per-batch"];
  for (const way of ways) results.get(way)!.push(measure(way, round));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `\n${MESSAGES} messages in batches of ${BATCH}, median µs of CPU per message (the three transactions of each batch):`,
);
for (const [way, values] of results)
  console.log(`  ${way}: ${median(values).toFixed(2)} (${values.map((v) => v.toFixed(2)).join(", ")})`);
rmSync(dir, { recursive: true, force: true });
