// A separate process for the concurrency test: says "ready", waits for "go" on stdin, then tries to
// queue `count` one-credit messages for `userId` against the same SQLite file (all at once, or
// `one-by-one` as a third argument), and reports the tally.
import { createInterface } from "node:readline";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { closeQueues } from "#app/queue/queues.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";

const [userId, count] = process.argv.slice(2, 4).map(Number);
const oneByOne = process.argv[4] === "one-by-one";
const input = createInterface({ input: process.stdin });
console.log("ready");
await new Promise((resolve) => input.once("line", resolve));
input.close();

let queued = 0;
let refused = 0;
async function send(i: number) {
  try {
    await queueMessage(userId, { to: "+12025550130", body: `burst ${process.pid} ${i}` });
    queued += 1;
  } catch (error) {
    if (!(error instanceof InsufficientCreditsError)) throw error;
    refused += 1;
  }
}
// `one-by-one`: each send waits for the one before (a burst that lasts, e.g. to back up during it).
if (oneByOne) for (let i = 0; i < count; i++) await send(i);
else await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
console.log(JSON.stringify({ queued, refused }));
await closeQueues();
await closeRedis();
