// npm run restore -- <file>: puts a backup made by `npm run backup` in place of DATA_DIR/app.db.
// The gateway must be stopped; Redis is emptied of this deployment's keys and rebuilt from the
// database at the next start (docs/operations.md#restoring-a-backup, decision 081).
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { connect } from "node:net";
import { resolve } from "node:path";
import { installDatabase, processesUsing, verifyDatabase } from "#app/db/backup.server.ts";
import { restorePostgres, verifyDump } from "#app/db/postgres/dump.server.ts";
import { readFleetConfig } from "#app/modules/health/fleet-config.server.ts";
import { handOutboxToReconciler } from "#app/modules/sms/reconcile.server.ts";
import { redisUrlFile, withOwnRedis } from "#app/queue/redis.server.ts";
import { getEnv, PRIVATE_DIR } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";

const say = (line: string) => console.log(`[restore] ${line}`);
function refuse(reason: string): never {
  console.error(`[restore] refused: ${reason}. Nothing was changed.`);
  process.exit(1);
}

/** Whether something accepts connections on the gateway's port (a web process, or anything else there). */
function portAnswers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: "127.0.0.1", timeout: 1_000 });
    socket.once("connect", () => (socket.destroy(), done(true)));
    socket.once("timeout", () => (socket.destroy(), done(false)));
    socket.once("error", () => done(false));
  });
}

/**
 * Deletes every key under QUEUE_PREFIX: jobs, job schedulers and counters that describe the database
 * being replaced. The reconcilers and the workers' start rebuild what the restored database needs.
 */
async function clearRedis(url: string, prefix: string): Promise<number> {
  return withOwnRedis(url, async (redis) => {
    let deleted = 0;
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1_000 })) {
      if ((keys as string[]).length) deleted += await redis.unlink(...(keys as string[]));
    }
    return deleted;
  });
}

const target = process.argv[2];
if (!target) {
  console.error("usage: npm run restore -- <backup file>   (with the gateway stopped)");
  process.exit(2);
}
const backup = resolve(process.env.INIT_CWD ?? process.cwd(), target);
const env = getEnv();

/**
 * With DATABASE_URL: refuses while any web or worker process of any host is heard of in Redis, checks
 * the dump, empties this deployment's Redis keys and restores in one transaction (decision 130).
 */
async function restoreOnPostgres(url: string): Promise<void> {
  const live = await withOwnRedis(env.REDIS_URL!, async (redis) => [
    ...(await readFleetConfig(redis, env.QUEUE_PREFIX)).keys(),
  ]).catch((error: Error) =>
    refuse(`Redis at REDIS_URL did not answer (${error.message}): it tells which hosts still run`),
  );
  if (live.length)
    refuse(
      `${live.join(", ")} still run (heard of in Redis in the last minutes): stop the web and every worker on every host first`,
    );
  if (!existsSync(backup)) refuse(`${backup} does not exist`);
  const check = await verifyDump(backup);
  if (!check.ok) refuse(`${backup} is not a usable backup: ${check.problem}`);
  const deleted = await clearRedis(env.REDIS_URL!, env.QUEUE_PREFIX).catch((error: Error) =>
    refuse(`Redis at REDIS_URL did not answer (${error.message})`),
  );
  say(
    `Redis: deleted ${pluralize(deleted, "key")} under "${env.QUEUE_PREFIX}:"; the next start rebuilds them from the database`,
  );
  try {
    await restorePostgres(url, backup);
  } catch (error) {
    refuse(`${(error as Error).message}; the database was left as it was (one transaction)`);
  }
  say(`the database is now the backup ${backup} (${pluralize(check.tables, "table")})`);
  const waiting = await handOutboxToReconciler();
  if (waiting)
    say(
      `${pluralize(waiting, "queued message")} go to the workers when they start (the reconciler re-adds their jobs)`,
    );
  say("start the gateway on every host: the workers re-add queued messages and schedules from the database");
}

if (env.DATABASE_URL) {
  await restoreOnPostgres(env.DATABASE_URL);
  process.exit(0);
}

// 1. The gateway is stopped: no process has the database open, and nothing answers on its port.
const holders = processesUsing();
if (holders === undefined)
  say(
    "cannot list the processes that have the database open here (no /proc): make sure the web and every worker are stopped",
  );
else if (holders.length)
  refuse(
    `processes ${holders.join(", ")} have ${resolve(env.DATA_DIR, "app.db")} open: stop the web and every worker first`,
  );
if (await portAnswers(env.PORT)) refuse(`something answers on port ${env.PORT} (PORT): stop the gateway first`);

// 2. The backup is whole and is this app's.
if (!existsSync(backup)) refuse(`${backup} does not exist`);
const check = verifyDatabase(backup);
if (!check.ok) refuse(`${backup} is not a usable backup: ${check.problem}`);

// 3. Redis forgets the replaced database: a shared Redis loses this deployment's keys, the private one starts empty.
const privateRedisDir = resolve(env.DATA_DIR, "redis");
const url = env.REDIS_URL ?? (existsSync(redisUrlFile()) ? readFileSync(redisUrlFile(), "utf8").trim() : undefined);
let redisDone = false;
if (url) {
  try {
    const deleted = await clearRedis(url, env.QUEUE_PREFIX);
    say(
      `Redis: deleted ${pluralize(deleted, "key")} under "${env.QUEUE_PREFIX}:"; the next start rebuilds them from the database`,
    );
    redisDone = true;
  } catch (error) {
    if (env.REDIS_URL)
      refuse(
        `Redis at REDIS_URL did not answer (${(error as Error).message}); start it, or delete the keys "${env.QUEUE_PREFIX}:*" yourself`,
      );
  }
}
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
if (!redisDone && existsSync(privateRedisDir)) {
  renameSync(privateRedisDir, `${privateRedisDir}.before-restore-${stamp}`);
  say(`the private Redis's data was moved to ${privateRedisDir}.before-restore-${stamp}; it starts empty`);
}

// 4. The backup goes in place; the database it replaces is kept beside it.
mkdirSync(env.DATA_DIR, { recursive: true, mode: PRIVATE_DIR });
const { keptAs } = installDatabase(backup);
say(`${resolve(env.DATA_DIR, "app.db")} is now the backup ${backup} (${check.migrations} migrations applied in it)`);
if (keptAs) say(`the database it replaced is kept as ${keptAs}`);
const waiting = await handOutboxToReconciler();
if (waiting)
  say(`${pluralize(waiting, "queued message")} go to the workers when they start (the reconciler re-adds their jobs)`);
say("start the gateway: migrations run, the workers re-add queued messages and schedules from the database");
