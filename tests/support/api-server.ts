// The API on plain Node http in a process of its own (same DATA_DIR, Redis and prefix as the test
// that starts it), to show that what one process does to a key holds in another. Prints its port.
import { createServer } from "node:http";
import { api } from "#server/api.ts";

const server = createServer((req, res) => {
  void Promise.resolve(api(req, res)).then((handled) => {
    if (!handled) res.writeHead(404).end();
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log((server.address() as { port: number }).port);
});
process.stdin.on("end", () => process.exit(0)).resume();
