// npm run backup and npm run restore with DATABASE_URL (decision 130): a pg_dump taken while the app
// runs, a restore refused while any host's process is heard of in Redis (nothing changed), then
// done once they have stopped: the database is the backup again, this deployment's Redis keys gone.
import type { ChildProcess } from "node:child_process";
import { runToEnd } from "#tests/support/child-processes.ts";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { startConfigBeacon } from "#app/modules/health/fleet-config.server.ts";
import {
  inspectImage,
  readStoredImage,
  removePackageImage,
  storePackageImage,
} from "#app/modules/shop/images.server.ts";
import { getRedis, redisKey } from "#app/queue/redis.server.ts";
import { SETTING_NAMES } from "#app/utils/env.server.ts";
import { png } from "#tests/support/images.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

const scratch = mkdtempSync(join(tmpdir(), "smsgw-pg-backup-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs an entry point to its end; its output is the answer. */
const run = (entry: string, args: string[]) => runToEnd(entry, args, process.env, children);

it("backs PostgreSQL up with pg_dump, refuses to restore while a host runs, then restores", async () => {
  const user = await createTestUser();
  await grantCredits(user.id, 500);
  // Package images live in the database too (decision 132): the dump carries their bytes.
  const image = png(40, 30);
  const checked = inspectImage(image);
  if (!checked.ok) throw new Error(checked.error);
  const imageName = (await storePackageImage(image, checked.info)).split("/").pop()!;
  const backupFile = join(scratch, "smsgw.dump");
  const backedUp = await run("scripts/backup.ts", [backupFile]);
  expect(backedUp.output).toMatch(/pg_dump of \d+ tables, checked/);
  expect(backedUp.code).toBe(0);
  expect(statSync(backupFile).mode & 0o777).toBe(0o600);
  expect((await run("scripts/backup.ts", [backupFile])).output).toContain("exists already");

  // After the backup: more credits, no image, and a key in Redis.
  await grantCredits(user.id, 250);
  await removePackageImage(`/uploads/packages/${imageName}`);
  expect(await getBalance(user.id)).toBe(750);
  await getRedis().set(redisKey("probe"), "1");

  // A worker of some host still runs: refused, nothing changed.
  const worker = startConfigBeacon("worker", SETTING_NAMES);
  await expect.poll(async () => await getRedis().hlen(redisKey("fleet", "config"))).toBe(1);
  const refused = await run("scripts/restore.ts", [backupFile]);
  expect(refused.output).toMatch(/refused: .*:worker still run/);
  expect(refused.code).toBe(1);
  expect(await getBalance(user.id)).toBe(750);
  expect(await getRedis().get(redisKey("probe"))).toBe("1");
  await worker.stop();

  const notADump = join(scratch, "not-a-dump");
  const garbage = await run("scripts/restore.ts", [notADump]);
  expect(garbage.output).toContain("does not exist");
  expect(existsSync(notADump)).toBe(false);

  const restored = await run("scripts/restore.ts", [backupFile]);
  expect(restored.output).toContain("the database is now the backup");
  expect(restored.code).toBe(0);
  expect(await getBalance(user.id)).toBe(500);
  expect((await readStoredImage(imageName))?.bytes).toEqual(Buffer.from(image));
  expect(await getRedis().get(redisKey("probe"))).toBeNull();
});
