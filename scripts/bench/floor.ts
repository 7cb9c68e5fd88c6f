// The floor under the gateway's CPU per message: what a gateway with no state costs in this runtime.
// One process takes POST /api/v1/messages over node:http (the bench's requests, keep-alive, 64 at
// a time), checks the number (E.164 by pattern, or with --validate the API's libphonenumber check),
// answers 201 with the API's message resource, and hands the messages to the project's SMPP transport
// (25 at a time, the worker's slice) to the bench's loopback SMSC, whose receipts it takes. No
// database, no queue, no key check, no log: everything the real gateway does beyond this is state.
// Prints the process's CPU µs per message (the figure to set beside `npm run bench`'s gateway µs and
// Kannel's in the same sitting) and the full cycle's rate.
//   node scripts/run.mjs scripts/bench/floor.ts [--requests 20000] [--rounds 3] [--validate]
import { type ChildProcess, fork } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isE164, normalizePhone } from "#app/modules/messaging/phone.ts";
import type { OutgoingSms } from "#app/modules/messaging/transport-types.ts";
import { SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import { benchMessage, runLoad, sendRequest } from "./http-load.ts";
import { cpuSeconds } from "./process-cpu.ts";
import { queuedResource } from "./queued-resource.ts";
import { forkSmsc, nextMessage } from "./smsc-client.ts";

const SLICE = 25;
const CONCURRENCY = 64;

/** The gateway without state, in a child process: serves until told to stop, reports receipts counted. */
async function serveFloor() {
  const validate = process.env.FLOOR_VALIDATE === "1";
  let delivered = 0;
  const transport = new SmppTransport({
    url: process.env.FLOOR_SMPP_URL!,
    sourceAddr: "Bench",
    tps: 0,
    window: 1000,
    onReceipts: async (receipts) => {
      delivered += receipts.length;
    },
  });
  let nextId = 1;
  let waiting: OutgoingSms[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    for (let i = 0; i < batch.length; i += SLICE)
      void transport.submitMany(batch.slice(i, i + SLICE), async (ids) => new Set(ids));
  };
  const refuse = (res: ServerResponse, error: string) => {
    const body = JSON.stringify({ error: { code: "validation_failed", message: error } });
    res.writeHead(422, ["Content-Type", "application/json", "Content-Length", String(Buffer.byteLength(body))]);
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const input = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { to?: unknown; body?: unknown };
      if (typeof input.to !== "string" || typeof input.body !== "string" || input.body.length === 0)
        return refuse(res, "to and body are required");
      const number = validate ? normalizePhone(input.to, "US") : { ok: isE164(input.to), e164: input.to };
      if (!number.ok || !("e164" in number)) return refuse(res, "not a valid phone number");
      const id = nextId++;
      const body = JSON.stringify(queuedResource(id, number.e164, input.body, Date.now()));
      res.writeHead(201, ["Content-Type", "application/json", "Content-Length", String(Buffer.byteLength(body))]);
      res.end(body);
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ id, to: number.e164, body: input.body, parts: [1] });
    });
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ type: "ready", port: (server.address() as AddressInfo).port }));
  process.on("message", (message: { type: string }) => {
    if (message.type === "delivered") process.send?.({ type: "delivered", delivered });
    if (message.type === "stop") void transport.close().then(() => process.exit(0));
  });
}

async function measure() {
  const { values: args } = parseArgs({
    options: {
      requests: { type: "string", default: "20000" },
      rounds: { type: "string", default: "3" },
      validate: { type: "boolean", default: false },
    },
  });
  const total = Number(args.requests);
  const children: ChildProcess[] = [];
  const smsc = await forkSmsc({ ...process.env, BENCH_INBOUND_EVERY: "0" }, children);
  const floor = fork(fileURLToPath(import.meta.url), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, FLOOR_SERVE: "1", FLOOR_SMPP_URL: smsc.url, FLOOR_VALIDATE: args.validate ? "1" : "0" },
  });
  children.push(floor);
  try {
    const { port } = await nextMessage<{ port: number }>(floor, "ready");
    while ((await smsc.stats()).bound < 1) await new Promise((done) => setTimeout(done, 20));
    let sent = 0;
    const request = (i: number) => sendRequest(port, "floor", benchMessage(i));
    console.log(`floor (${args.validate ? "libphonenumber" : "E.164 pattern"}): ${total} messages a round`);
    console.log("round | accepted/s | e2e/s | floor µs/msg | SMSC µs/msg");
    for (let round = 1; round <= Number(args.rounds); round++) {
      const cpuBefore = { floor: cpuSeconds(floor.pid!), smsc: cpuSeconds(smsc.process.pid!) };
      const load = await runLoad({ port, connections: CONCURRENCY, total, request });
      if ((load.statuses.get(201) ?? 0) !== total) throw new Error(`answers: ${JSON.stringify([...load.statuses])}`);
      sent += total;
      while ((await nextMessage<{ delivered: number }>(floor, "delivered", { type: "delivered" })).delivered < sent)
        await new Promise((done) => setTimeout(done, 5));
      const endedAt = performance.now();
      const perMessage = (seconds: number) => Math.round((seconds * 1e6) / total);
      console.log(
        [
          round,
          Math.round(total / ((load.finishedAt - load.startedAt) / 1000)),
          Math.round(total / ((endedAt - load.startedAt) / 1000)),
          perMessage(cpuSeconds(floor.pid!) - cpuBefore.floor),
          perMessage(cpuSeconds(smsc.process.pid!) - cpuBefore.smsc),
        ].join(" | "),
      );
    }
  } finally {
    floor.send({ type: "stop" });
    smsc.stop();
  }
}

if (process.env.FLOOR_SERVE === "1") await serveFloor();
else await measure();
