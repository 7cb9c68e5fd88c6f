// A start's database work alone, as a child process (tests/integration/start-twice.test.ts): what
// scripts/start.ts does before it serves, without a web server; prints the setup link's token as JSON on stdout.
import { existsSync } from "node:fs";
import { closeDb } from "#app/db/client.server.ts";
import { closeQueues } from "#app/queue/queues.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";
import { prepareDataDir } from "#app/utils/env.server.ts";
import { prepareDatabase } from "../../scripts/prepare-database.ts";

prepareDataDir();
// Loaded: says so, then waits for the test's go (the file START_BARRIER), so every start's database work begins at once.
console.error("ready");
const barrier = process.env.START_BARRIER!;
while (!existsSync(barrier)) await new Promise((resolve) => setTimeout(resolve, 2));
const { setupLink } = await prepareDatabase();
console.log(JSON.stringify({ token: setupLink?.token ?? null }));
await closeQueues();
await closeRedis();
await closeDb();
