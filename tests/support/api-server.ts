// The API on plain Node http in a process of its own (same DATA_DIR, Redis and prefix as the test
// that starts it), to show that what one process does to a key holds in another; also GET /metrics
// when METRICS_TOKEN is set (the budgets test reads this process's work counts there). Prints its port.
import { createServer } from "node:http";
import { api } from "#server/api.ts";
import { metrics } from "#server/metrics.ts";

const server = createServer((req, res) => {
  void (async () => {
    if (!(await metrics(req, res)) && !(await api(req, res))) res.writeHead(404).end();
  })();
});
server.listen(0, "127.0.0.1", () => {
  console.log((server.address() as { port: number }).port);
});
process.stdin.on("end", () => process.exit(0)).resume();
