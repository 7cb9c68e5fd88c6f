// A second process calling fulfil() on the same database: `node fulfil-child.ts <orderId> <paymentId>`.
// It loads everything, says "ready", and calls fulfil only when its parent writes "go", so several
// processes race for real.
import { createInterface } from "node:readline";
import { getDb } from "#app/db/client.server.ts";
import { fulfil } from "#app/modules/payments/fulfil.server.ts";

const [orderId, paymentId] = process.argv.slice(2);
getDb();
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== "go") continue;
  const result = await fulfil(Number(orderId), paymentId);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  break;
}
lines.close();
